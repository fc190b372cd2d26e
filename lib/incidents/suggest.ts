import type { Signal } from "@/lib/health/signal-model";
import type { Runbook, RunbookNode } from "@/lib/runbooks/schema";
import type { Suspect } from "./suspects";

// Pre-answering a runbook question from live data. Runbooks draw the answer that the firing signal gives
// first (e.g. "Is the operator running?" -->|No| before -->|Yes|, with signal operator.unavailable): so a
// firing signal suggests the first answer, a healthy one the second, an unknown one nothing.

export interface Suggestion {
  answer: string;
  signal: string;
  state: string;
  /** The subjects and details the suggestion rests on, as seen at that moment. */
  evidence: { subject: string; state: string; detail: string; evidence: unknown }[];
}

export function suggestAnswer(node: RunbookNode, signals: Pick<Signal, "id" | "subject" | "state" | "detail" | "evidence">[]): Suggestion | undefined {
  if (!node.signal || node.kind !== "question" || node.next.length < 2) return undefined;
  const seen = signals.filter((s) => s.id === node.signal);
  if (seen.length === 0) return undefined;
  const firing = seen.filter((s) => s.state === "critical" || s.state === "warning");
  const evidence = (firing.length ? firing : seen).slice(0, 10).map((s) => ({ subject: s.subject, state: s.state, detail: s.detail, evidence: s.evidence }));
  if (firing.length > 0) return { answer: node.next[0].label!, signal: node.signal, state: firing.some((s) => s.state === "critical") ? "critical" : "warning", evidence };
  if (seen.every((s) => s.state === "ok")) return { answer: node.next[1].label!, signal: node.signal, state: "ok", evidence };
  return undefined;
}

/** The runbooks worth starting for an incident: those reaching its suspects (best first), then those asking about its signals. */
export function suggestRunbooks(runbooks: Runbook[], suspects: Pick<Suspect, "id">[], signals: string[]): Runbook[] {
  const score = new Map<string, number>();
  suspects.forEach((suspect, rank) => {
    for (const runbook of runbooks) {
      if (runbook.nodes.some((n) => n.catalog.includes(suspect.id))) score.set(runbook.id, Math.max(score.get(runbook.id) ?? 0, 100 - rank));
    }
  });
  for (const runbook of runbooks) {
    const asks = runbook.nodes.filter((n) => n.signal && signals.includes(n.signal)).length;
    const start = runbook.nodes.find((n) => n.id === runbook.root);
    if (asks > 0) score.set(runbook.id, (score.get(runbook.id) ?? 0) + asks + (start?.signal && signals.includes(start.signal) ? 5 : 0));
  }
  return runbooks.filter((r) => score.has(r.id)).sort((a, b) => score.get(b.id)! - score.get(a.id)! || a.id.localeCompare(b.id));
}
