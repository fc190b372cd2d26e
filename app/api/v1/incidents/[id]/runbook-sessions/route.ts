import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { startRunbookSession } from "@/lib/incidents/sessions/runbook-sessions";
import { IncidentParams, StartSessionBody } from "@/lib/incidents/schemas";

/** Starts a runbook for the incident. Body: { runbookId? }; the actor is the signed-in person (without one, the best match for its suspects). */
export const POST = route({
  role: "responder",
  action: "incident.runbook.start",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  body: StartSessionBody,
  run: async ({ params, body, who }) => ({ session: await startRunbookSession(getDb(), params.id, { ...body, actor: actorOf(who) }) }),
  reply: { status: 201 },
});
