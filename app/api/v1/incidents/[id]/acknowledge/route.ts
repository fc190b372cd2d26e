import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { acknowledgeIncident } from "@/lib/incidents/actions";
import { AcknowledgeBody, IncidentParams } from "@/lib/incidents/schemas";

/** Body: { actor, note? }. 409 when already acknowledged or resolved. */
export const POST = route({
  params: IncidentParams,
  body: AcknowledgeBody,
  run: async ({ params, body }) => ({ incident: await acknowledgeIncident(getDb(), params.id, body) }),
});
