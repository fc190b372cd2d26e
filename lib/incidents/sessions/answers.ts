import type { RunbookAnswer } from "@/lib/diagnosis/answers";
import { readOr, readSteps } from "../stored";
import type { Tx } from "../tx";

/** The questions answered in the runbooks walked for an incident, oldest first; steps that do not read are left out (and logged). */
export async function sessionAnswers(tx: Pick<Tx, "runbookSession">, incidentId: number): Promise<RunbookAnswer[]> {
  const sessions = await tx.runbookSession.findMany({ where: { incidentId }, orderBy: { id: "asc" }, select: { id: true, runbookId: true, steps: true } });
  return sessions
    .flatMap((s) => readOr(() => readSteps(s.steps, s.id), []).value.map((step) => ({ runbookId: s.runbookId, step })))
    .filter(({ step }) => step.answer !== null)
    .sort((a, b) => a.step.at.localeCompare(b.step.at))
    .map(({ runbookId, step }) => ({ runbookId, node: step.node, answer: step.answer!, to: step.to }));
}
