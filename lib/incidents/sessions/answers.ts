import type { ChoiceAnswer, RunbookAnswer } from "@/lib/diagnosis/answers";
import { readOr, readSteps } from "../stored";
import type { Tx } from "../tx";

/** The timeline event of a separating question answered on the incident page (question.ts). */
export const QUESTION_ANSWERED = "question_answered";

/** The questions answered in the runbooks walked for an incident, oldest first; steps that do not read are left out (and logged). */
export async function sessionAnswers(tx: Pick<Tx, "runbookSession">, incidentId: number): Promise<RunbookAnswer[]> {
  const sessions = await tx.runbookSession.findMany({ where: { incidentId }, orderBy: { id: "asc" }, select: { id: true, runbookId: true, steps: true } });
  return sessions
    .flatMap((s) => readOr(() => readSteps(s.steps, s.id), []).value.map((step) => ({ runbookId: s.runbookId, step })))
    .filter(({ step }) => step.answer !== null)
    .sort((a, b) => a.step.at.localeCompare(b.step.at))
    .map(({ runbookId, step }) => ({ runbookId, node: step.node, answer: step.answer!, to: step.to }));
}

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * Everything the on-call answered for an incident, oldest first: runbook steps walked, and separating questions
 * answered where the incident page asked them (a runbook question's branch, or which of two suspects a catalog
 * question's check showed). A stored answer that does not read says nothing.
 */
export async function incidentAnswers(
  tx: Pick<Tx, "runbookSession" | "incidentEvent">,
  incidentId: number,
): Promise<{ answers: RunbookAnswer[]; choices: ChoiceAnswer[] }> {
  const answers = await sessionAnswers(tx, incidentId);
  const events = await tx.incidentEvent.findMany({ where: { incidentId, kind: QUESTION_ANSWERED }, orderBy: { id: "asc" }, select: { payload: true } });
  const choices: ChoiceAnswer[] = [];
  for (const { payload } of events) {
    const p = (payload ?? {}) as Record<string, unknown>;
    const [runbookId, node, answer, question, choose, over] = ["runbookId", "node", "answer", "question", "choose", "over"].map((k) => text(p[k]));
    if (runbookId && node && answer) answers.push({ runbookId, node, answer, to: text(p.to) ?? null });
    else if (choose && over) choices.push({ question: question ?? "", for: choose, against: over });
  }
  return { answers, choices };
}
