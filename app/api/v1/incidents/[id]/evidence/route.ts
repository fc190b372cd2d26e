import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { addPastedEvidence, listIncidentEvidence, PASTE_BODY_LIMIT } from "@/lib/incidents/evidence/paste";
import { EvidenceBody, IncidentParams } from "@/lib/incidents/schemas";

/** The incident's evidence (pasted output, log tails, journals), newest first, secrets hidden. */
export const GET = route({
  role: "viewer",
  params: IncidentParams,
  run: ({ params }) => listIncidentEvidence(getDb(), params.id),
});

/** Body: { text }, what the on-call pasted; answers what it showed and the first suspect after it. */
export const POST = route({
  role: "responder",
  action: "incident.evidence",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  body: EvidenceBody,
  bodyLimit: PASTE_BODY_LIMIT,
  run: ({ params, body, who }) => addPastedEvidence(getDb(), params.id, { text: body.text, actor: actorOf(who) }),
  reply: { status: 201 },
});
