import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { liveSignalsOf } from "@/lib/incidents/detail";
import { recordRunbookStep } from "@/lib/incidents/runbook-sessions";
import { SessionParams, StepBody } from "@/lib/incidents/schemas";

/** Records the answer to the step the session stands at. Body: { actor, node, answer?, note?, evidence? }. */
export const POST = route({
  params: SessionParams,
  body: StepBody,
  run: ({ params, body }) => recordRunbookStep(getDb(), params.id, params.sid, body, liveSignalsOf),
  reply: { status: 201 },
});
