import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { startRunbookSession } from "@/lib/incidents/runbook-sessions";
import { IncidentParams, StartSessionBody } from "@/lib/incidents/schemas";

/** Starts a runbook for the incident. Body: { actor, runbookId? } (without one, the best match for its suspects). */
export const POST = route({
  params: IncidentParams,
  body: StartSessionBody,
  run: async ({ params, body }) => ({ session: await startRunbookSession(getDb(), params.id, body) }),
  reply: { status: 201 },
});
