import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { liveSignalsOf } from "@/lib/incidents/history/detail";
import { recordRunbookStep } from "@/lib/incidents/sessions/runbook-sessions";
import { SessionParams, StepBody } from "@/lib/incidents/schemas";

/** Records the answer to the step the session stands at. Body: { node, answer?, note?, evidence? }. */
export const POST = route({
  role: "responder",
  action: "incident.runbook.answer",
  object: { type: "incident", param: "id" },
  params: SessionParams,
  body: StepBody,
  run: ({ params, body, who }) => recordRunbookStep(getDb(), params.id, params.sid, { ...body, actor: actorOf(who) }, liveSignalsOf),
  reply: { status: 201 },
});
