import type { Signal } from "@/lib/signals/signal-model";
import { getRunbook, listRunbooks } from "@/lib/catalog/runbooks";
import { firstRecoveryStep } from "@/lib/catalog/recovery";
import { getCatalog } from "@/lib/catalog/queries";
import { nodeMap } from "@/lib/runbooks/walk";
import type { IncidentDetail } from "./queries";
import { suggestAnswer, type Suggestion } from "../suspects/suggest";

// What live data says about an incident right now: its signals' current states, and for each unfinished
// runbook session the answer live data suggests for the step it stands at.

export function describeLive(detail: IncidentDetail, signals: Signal[]) {
  const ids = new Set(detail.members.map((m) => m.signal));
  const current = signals.filter((s) => ids.has(s.id)).map((s) => ({ signal: s.id, subject: s.subject, state: s.state, detail: s.detail }));
  const suggestions: { sessionId: number; node: string; suggestion: Suggestion | null }[] = [];
  for (const session of detail.sessions) {
    if (session.finishedAt) continue;
    const runbook = getRunbook(session.runbookId);
    const node = runbook && nodeMap(runbook).get(session.path[session.path.length - 1]);
    if (node) suggestions.push({ sessionId: session.id, node: node.id, suggestion: suggestAnswer(node, signals) ?? null });
  }
  // The first suspect's separating question, pre-answered from live data where its runbook step names a signal.
  const top = detail.suspects[0];
  const asked = top?.undecided?.runbook;
  const askedNode = asked && getRunbook(asked.id) && nodeMap(getRunbook(asked.id)!).get(asked.node);
  const question = askedNode ? (suggestAnswer(askedNode, signals) ?? null) : null;
  // What to do about each of the first answer's failure modes: its root's fix and each facet's own step.
  const steps: Record<string, { title: string; href: string; where: string }> = {};
  for (const id of top ? [top.id, ...(top.facets ?? []).map((f) => f.id)] : []) {
    const entry = getCatalog().entries.find((e) => e.id === id && e.kind === "failure-mode");
    if (!entry || entry.kind !== "failure-mode") continue;
    const { title, href, where } = firstRecoveryStep(entry, listRunbooks());
    steps[id] = { title, href, where };
  }
  return { signals: current, suggestions, question, steps };
}
