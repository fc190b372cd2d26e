import type { Runbook } from "@/lib/runbooks/schema";
import { choiceKey, reachable } from "./confidence";

// What an on-call learns by walking a runbook for an incident. An answer recorded to a question is evidence for the
// failure modes its branch leads to, and against those only the other branches lead to: the runbook's author drew
// the tree so that each answer rules out the causes behind the others.

/** A question the on-call answered in a runbook walked for the incident (a recorded step). */
export interface RunbookAnswer {
  runbookId: string;
  /** The question's node id. */
  node: string;
  /** The answer as recorded ("Yes"). */
  answer: string;
  /** The node the answer led to, when recorded: it names the branch even if a label was reworded since. */
  to?: string | null;
}

/** One answer's meaning for the ranking. */
export interface AnswerEvidence {
  /** As the suspect's reasons read it: the on-call answered 'Does it answer 503 sealed?' yes. */
  said: string;
  /** Failure modes the chosen branch leads to. */
  leadsTo: string[];
  /** Failure modes only the other branches lead to. */
  leadsAway: string[];
}

/**
 * The evidence of each answer, the latest answer to a question winning (a walk repeated after a fix). An answer to
 * a node that is no longer a question of its runbook, or names no branch of it, says nothing.
 */
export function readAnswers(runbooks: readonly Runbook[], answers: readonly RunbookAnswer[], isMode: (id: string) => boolean): AnswerEvidence[] {
  const latest = new Map<string, RunbookAnswer>();
  for (const a of answers) latest.set(`${a.runbookId}\u0000${a.node}`, a);
  const out: AnswerEvidence[] = [];
  for (const a of latest.values()) {
    const runbook = runbooks.find((r) => r.id === a.runbookId);
    const byId = new Map(runbook?.nodes.map((n) => [n.id, n]));
    const node = byId.get(a.node);
    if (!node || node.kind !== "question" || node.next.length < 2) continue;
    const wanted = a.answer.trim().toLowerCase();
    const chosen = node.next.find((n) => n.to === a.to) ?? node.next.find((n) => (n.label ?? "").trim().toLowerCase() === wanted);
    if (!chosen) continue;
    const modesFrom = (start: string) => new Set([...reachable(byId, start)].flatMap((id) => byId.get(id)?.catalog ?? []).filter(isMode));
    const leadsTo = modesFrom(chosen.to);
    const elsewhere = new Set(node.next.filter((n) => n !== chosen).flatMap((n) => [...modesFrom(n.to)]));
    out.push({
      said: `the on-call answered '${node.label}' ${(chosen.label ?? a.answer).trim().toLowerCase()}`,
      leadsTo: [...leadsTo],
      leadsAway: [...elsewhere].filter((id) => !leadsTo.has(id)),
    });
  }
  return out;
}

/**
 * A separating question no runbook step asks (the failure mode's own `diagnosis.question`), answered by naming which
 * of the two suspects the check showed: evidence for that one and against the other, as a runbook answer is.
 */
export interface ChoiceAnswer {
  question: string;
  for: string;
  against: string;
}

/** The evidence of each choice, the latest for a pair winning. A choice naming a failure mode the catalog lacks says nothing. */
export function readChoices(choices: readonly ChoiceAnswer[], titleOf: (id: string) => string | undefined): AnswerEvidence[] {
  const latest = new Map<string, ChoiceAnswer>();
  for (const c of choices) latest.set(choiceKey(c.for, c.against), c);
  return [...latest.values()]
    .filter((c) => titleOf(c.for) && titleOf(c.against) && c.for !== c.against)
    .map((c) => ({
      said: `the on-call answered '${c.question}': ${titleOf(c.for)}, not ${titleOf(c.against)}`,
      leadsTo: [c.for],
      leadsAway: [c.against],
    }));
}
