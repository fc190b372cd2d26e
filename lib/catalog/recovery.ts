import type { Runbook, RunbookNode } from "@/lib/runbooks/schema";
import { depths, formatPath, pathTo } from "@/lib/runbooks/walk";

// The first thing to do about a failure mode, for the first screen of an incident: the runbook step that fixes it
// (a leaf of kind action that names it, the one reached in the fewest steps), with its first command; else a step
// that concludes it (kind diagnosis); else the catalog entry's own recovery text, which carries no command.

export interface RecoveryStep {
  /** What to do, in a few words: the step's label, or the catalog's recovery text. */
  title: string;
  /** The step's explanation, when it has one. */
  text?: string;
  /** The step's first command; absent when neither the step nor the catalog gives one. */
  command?: { command: string; label?: string };
  /** Where the whole step is read: the runbook opened at that step, or the catalog entry. */
  href: string;
  /** That place, named: "OpenBao sealed, unreachable or failing over, step H1", or "the catalog entry". */
  where: string;
}

const KIND_ORDER: Partial<Record<RunbookNode["kind"], number>> = { action: 0, diagnosis: 1 };

type RunbookTree = Pick<Runbook, "id" | "title" | "root" | "nodes">;

export function firstRecoveryStep(entry: { id: string; recovery: string }, runbooks: RunbookTree[]): RecoveryStep {
  let best: { runbook: RunbookTree; node: RunbookNode; rank: [number, number] } | undefined;
  for (const runbook of runbooks) {
    const depth = depths(runbook);
    for (const node of runbook.nodes) {
      if (!node.catalog.includes(entry.id)) continue;
      const rank: [number, number] = [KIND_ORDER[node.kind] ?? 2, depth.get(node.id) ?? Infinity];
      // Runbooks come in id order, so a tie keeps the first: the same step on every render.
      if (!best || rank[0] < best.rank[0] || (rank[0] === best.rank[0] && rank[1] < best.rank[1])) best = { runbook, node, rank };
    }
  }
  const path = best && pathTo(best.runbook, best.node.id);
  if (!best || !path) return { title: entry.recovery, href: `/catalog/${entry.id}`, where: "the catalog entry" };
  const { runbook, node } = best;
  const first = node.commands[0];
  return {
    title: node.label,
    text: node.text,
    command: first ? { command: first.command, label: first.label } : undefined,
    href: `/runbooks/${runbook.id}?path=${formatPath(path)}`,
    where: `${runbook.title}, step ${node.id}`,
  };
}
