import type { Signal } from "@/lib/signals/signal-model";
import type { Runbook, RunbookNode } from "@/lib/runbooks/schema";
import { depths } from "@/lib/runbooks/walk";
import type { Suspect } from "@/lib/diagnosis/rank";

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
  if (firing.length > 0)
    return { answer: node.next[0].label!, signal: node.signal, state: firing.some((s) => s.state === "critical") ? "critical" : "warning", evidence };
  if (seen.every((s) => s.state === "ok")) return { answer: node.next[1].label!, signal: node.signal, state: "ok", evidence };
  return undefined;
}

/**
 * The runbooks worth starting for an incident, best first. The rank of the best suspect a runbook reaches
 * decides; between runbooks reaching the same suspect, the one that reaches it in fewer steps is the more
 * specific tree (OpenBao's own runbook before "API server will not start" for a sealed OpenBao); then the
 * number of the incident's signals the runbook asks about.
 */
export function suggestRunbooks(runbooks: Runbook[], suspects: Pick<Suspect, "id">[], signals: string[]): Runbook[] {
  const score = new Map<string, number>();
  for (const runbook of runbooks) {
    const depth = depths(runbook);
    let best: number | undefined;
    suspects.forEach((suspect, rank) => {
      const steps = runbook.nodes.filter((n) => n.catalog.includes(suspect.id)).map((n) => depth.get(n.id) ?? 99);
      if (steps.length > 0) best = Math.max(best ?? -Infinity, 1000 - rank * 100 - Math.min(...steps));
    });
    const asks = runbook.nodes.filter((n) => n.signal && signals.includes(n.signal)).length;
    const start = runbook.nodes.find((n) => n.id === runbook.root);
    if (best === undefined && asks === 0) continue;
    score.set(runbook.id, (best ?? 0) + asks * 0.1 + (start?.signal && signals.includes(start.signal) ? 0.5 : 0));
  }
  return runbooks.filter((r) => score.has(r.id)).sort((a, b) => score.get(b.id)! - score.get(a.id)! || a.id.localeCompare(b.id));
}
