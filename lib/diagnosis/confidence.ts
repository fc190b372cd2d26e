import type { FailureMode } from "@/lib/catalog/schema";
import type { Runbook } from "@/lib/runbooks/schema";
import { depths, pathTo } from "@/lib/runbooks/walk";

// How sure the ranking is, and what to ask when it is not. A suspect's confidence is its share of the evidence
// (a softmax of the scores; the temperature is set so that stated confidence matches how often the first suspect
// is right on the tuned part of the corpus, npm run eval:diagnosis). When the first two are too close to call,
// the diagnosis says so and names the question that separates them.

export const TEMPERATURE = 0.9;
/** Below this, or with the second suspect this close, the first is not named as the cause. */
const SURE = 0.6;
const CLOSE = 0.5;
/**
 * A second suspect holding this share is asked about even when the first is named: a stated share is right about as
 * often as it says (the calibration the temperature is set for), so the second would be the cause about one time in
 * ten, and one question is cheaper than a fix aimed at the wrong cause.
 */
const WORTH_ASKING = 0.1;

export interface Undecided {
  /** The other failure mode the evidence does not separate from the first suspect. */
  with: string;
  withTitle: string;
  /** The first is named as the cause, but the second holds 10% or more: the question would rule it out. */
  likely?: boolean;
  /** The question whose answer separates them. */
  question: string;
  /** Where a runbook asks it; absent when it comes from the catalog entry. */
  runbook?: { id: string; title: string; node: string; path: string[] };
  /**
   * The answers it takes, each with which of the two it points to, so it can be answered where it is asked: a runbook
   * question's branches, or for a catalog question the two suspects themselves. Absent when the pair was answered.
   */
  options?: QuestionOption[];
}

export interface QuestionOption {
  /** The branch's label ("Yes"), or the suspect's title for a catalog question. */
  label: string;
  /** The node the branch leads to (runbook questions). */
  to?: string;
  /** Which of the two suspects it points to (one, both or neither of them). */
  leadsTo: string[];
}

/** The key under which a pair's choice is remembered (answers.ts), whichever way it went: a pair is asked once. */
export const choiceKey = (a: string, b: string) => `choice\u0000${[a, b].sort().join("\u0000")}`;

export function confidences<T extends { score: number }>(ranked: T[]): (T & { confidence: number })[] {
  if (ranked.length === 0) return [];
  const top = ranked[0].score;
  const weights = ranked.map((s) => Math.exp((s.score - top) / TEMPERATURE));
  const total = weights.reduce((a, b) => a + b, 0);
  return ranked.map((s, i) => ({ ...s, confidence: Math.round((weights[i] / total) * 1000) / 1000 }));
}

/** The undecided pair and its question, or undefined when the first suspect stands out. */
export function decide(
  ranked: { id: string; title: string; confidence: number }[],
  modes: Map<string, FailureMode>,
  runbooks: Runbook[],
  answered?: ReadonlySet<string>,
): Undecided | undefined {
  const [first, second] = ranked;
  if (!first || !second) return undefined;
  const named = first.confidence >= SURE && second.confidence < first.confidence * CLOSE;
  if (named && second.confidence < WORTH_ASKING) return undefined;
  const likely = named ? { likely: true } : {};
  const asked = separatingQuestion(runbooks, first.id, second.id, answered);
  if (asked) return { with: second.id, withTitle: second.title, ...likely, question: asked.question, runbook: asked.runbook, options: asked.options };
  const a = modes.get(first.id);
  const b = modes.get(second.id);
  const question = a?.diagnosis?.question ?? b?.diagnosis?.question ?? `${a?.detection ?? ""}`.trim();
  // A catalog question is not drawn with branches: its answer is which of the two the check showed.
  const options = answered?.has(choiceKey(first.id, second.id))
    ? undefined
    : [
        { label: first.title, leadsTo: [first.id] },
        { label: second.title, leadsTo: [second.id] },
      ];
  return { with: second.id, withTitle: second.title, ...likely, question: question || `check which of the two the evidence on the cluster shows`, options };
}

/** Nodes reachable from `start`, the start included. */
export function reachable(byId: Map<string, Runbook["nodes"][number]>, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of byId.get(id)?.next ?? []) stack.push(next.to);
  }
  return seen;
}

/**
 * The runbook question whose answers lead apart to the two failure modes: one answer reaches a step naming A,
 * another a step naming B. The deepest such question is the most specific one. A question the on-call already
 * answered (`answered`: "runbook\u0000node") is not asked again.
 */
export function separatingQuestion(
  runbooks: Runbook[],
  a: string,
  b: string,
  answered?: ReadonlySet<string>,
): { question: string; runbook: NonNullable<Undecided["runbook"]>; options: QuestionOption[] } | undefined {
  let best: { depth: number; question: string; runbook: NonNullable<Undecided["runbook"]>; options: QuestionOption[] } | undefined;
  for (const runbook of runbooks) {
    const byId = new Map(runbook.nodes.map((n) => [n.id, n]));
    const names = (id: string) => (n: Runbook["nodes"][number]) => n.catalog.includes(id);
    const withA = new Set(runbook.nodes.filter(names(a)).map((n) => n.id));
    const withB = new Set(runbook.nodes.filter(names(b)).map((n) => n.id));
    if (withA.size === 0 || withB.size === 0) continue;
    const depth = depths(runbook);
    for (const node of runbook.nodes) {
      if (node.kind !== "question" || node.next.length < 2 || answered?.has(`${runbook.id}\u0000${node.id}`)) continue;
      const branches = node.next.map((n) => reachable(byId, n.to));
      const reachA = branches.map((set) => [...withA].some((id) => set.has(id)));
      const reachB = branches.map((set) => [...withB].some((id) => set.has(id)));
      const apart = reachA.some((ra, i) => ra && reachB.some((rb, j) => rb && j !== i && !reachA[j]) && !reachB[i]);
      const d = depth.get(node.id) ?? 0;
      if (apart && (!best || d > best.depth))
        best = {
          depth: d,
          question: node.label,
          runbook: { id: runbook.id, title: runbook.title, node: node.id, path: pathTo(runbook, node.id) ?? [node.id] },
          options: node.next.map((n, i) => ({
            label: n.label ?? "",
            to: n.to,
            leadsTo: [...(reachA[i] ? [a] : []), ...(reachB[i] ? [b] : [])],
          })),
        };
    }
  }
  return best && { question: best.question, runbook: best.runbook, options: best.options };
}

/**
 * A confidence as people read it: never "100%" (a cause the catalog does not know stays possible), never "0%". A lone
 * suspect holds all of the evidence whatever its strength, so it is "the only match", not ">99%".
 */
export function formatConfidence(confidence: number, suspects = 2): string {
  if (suspects === 1) return "the only match";
  if (confidence >= 0.995) return ">99%";
  if (confidence < 0.01) return "<1%";
  return `${Math.round(confidence * 100)}%`;
}
