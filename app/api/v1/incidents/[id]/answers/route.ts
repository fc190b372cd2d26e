import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { liveSignalsOf } from "@/lib/incidents/history/detail";
import { IncidentParams } from "@/lib/incidents/schemas";
import { answerQuestion, QuestionAnswerBody } from "@/lib/incidents/sessions/question";

/**
 * Answers the separating question where the incident page asks it. Body: { runbookId, node, answer } for a runbook
 * question, { choose, over } for a catalog one; answers the first suspect before and after.
 */
export const POST = route({
  role: "responder",
  action: "incident.question.answer",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  body: QuestionAnswerBody,
  run: ({ params, body, who }) => answerQuestion(getDb(), params.id, { ...body, actor: actorOf(who) }, liveSignalsOf),
  reply: { status: 201 },
});
