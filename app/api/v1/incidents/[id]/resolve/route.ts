import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { resolveIncident } from "@/lib/incidents/actions";
import { IncidentParams, ResolveBody } from "@/lib/incidents/schemas";

/** Body: { actor, resolution? }. 409 when already resolved. */
export const POST = route({
  params: IncidentParams,
  body: ResolveBody,
  run: async ({ params, body }) => ({ incident: await resolveIncident(getDb(), params.id, body) }),
});
