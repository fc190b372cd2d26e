import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { acknowledgeIncident } from "@/lib/incidents/members/actions";
import { AcknowledgeBody, IncidentParams } from "@/lib/incidents/schemas";

/** Body: { note? }; the actor is the signed-in person. 409 when already acknowledged or resolved. */
export const POST = route({
  role: "responder",
  action: "incident.acknowledge",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  body: AcknowledgeBody,
  run: async ({ params, body, who }) => ({ incident: await acknowledgeIncident(getDb(), params.id, { ...body, actor: actorOf(who) }) }),
});
