import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { resolveIncident } from "@/lib/incidents/members/actions";
import { IncidentParams, ResolveBody } from "@/lib/incidents/schemas";

/** Body: { resolution? }; the actor is the signed-in person. 409 when already resolved. */
export const POST = route({
  role: "responder",
  action: "incident.resolve",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  body: ResolveBody,
  run: async ({ params, body, who }) => ({ incident: await resolveIncident(getDb(), params.id, { ...body, actor: actorOf(who) }) }),
});
