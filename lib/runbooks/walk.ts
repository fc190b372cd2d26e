import type { Runbook, RunbookNode } from "./schema";

// Walking a runbook: the path an on-call took is a list of node ids from the start node, kept in
// the URL as ?path=A.B.C so a hand-over lands on the same step. Pure, shared by server and browser.

export const PATH_SEPARATOR = ".";

export function nodeMap(runbook: Pick<Runbook, "nodes">): Map<string, RunbookNode> {
  return new Map(runbook.nodes.map((n) => [n.id, n]));
}

export interface CheckedPath {
  path: string[];
  /** Set when the requested path went somewhere the tree does not: the walk stops before it. */
  problem?: string;
}

/** Keeps the longest valid prefix of a requested path; an empty request starts at the root. */
export function checkPath(runbook: Pick<Runbook, "nodes" | "root">, requested: string | undefined | null): CheckedPath {
  const ids = (requested ?? "")
    .split(PATH_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) return { path: [runbook.root] };
  const nodes = nodeMap(runbook);
  if (ids[0] !== runbook.root) return { path: [runbook.root], problem: `the path must start at ${runbook.root}, not ${ids[0]}` };
  const path = [ids[0]];
  for (const id of ids.slice(1)) {
    const here = nodes.get(path[path.length - 1])!;
    if (!here.next.some((n) => n.to === id)) {
      return { path, problem: `step ${id} does not follow ${here.id}; the walk stops at ${here.id}` };
    }
    path.push(id);
  }
  return { path };
}

export function formatPath(path: string[]): string {
  return path.join(PATH_SEPARATOR);
}

/** The shortest path from the start node to `target` (for links that open a runbook at a step). */
export function pathTo(runbook: Pick<Runbook, "nodes" | "root">, target: string): string[] | undefined {
  const nodes = nodeMap(runbook);
  const previous = new Map<string, string | null>([[runbook.root, null]]);
  const queue = [runbook.root];
  while (queue.length) {
    const id = queue.shift()!;
    if (id === target) {
      const path: string[] = [];
      for (let at: string | null | undefined = id; at; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const next of nodes.get(id)?.next ?? []) {
      if (!previous.has(next.to)) {
        previous.set(next.to, id);
        queue.push(next.to);
      }
    }
  }
  return undefined;
}

/** Keys that answer a question: 1..9 always, y/n for Yes/No answers. */
export function answerKeys(next: RunbookNode["next"]): string[] {
  return next.map((n, i) => {
    const label = n.label?.toLowerCase();
    if (label === "yes") return "y";
    if (label === "no") return "n";
    return String(i + 1);
  });
}

/** Breadth-first order from the start node, for the print view. */
export function stepsInOrder(runbook: Pick<Runbook, "nodes" | "root">): RunbookNode[] {
  const nodes = nodeMap(runbook);
  const seen = new Set<string>();
  const order: RunbookNode[] = [];
  const queue = [runbook.root];
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id) || !nodes.has(id)) continue;
    seen.add(id);
    order.push(nodes.get(id)!);
    for (const n of nodes.get(id)!.next) queue.push(n.to);
  }
  return order;
}

/** Steps from the root to each node (breadth first): how far into a tree an answer lies. */
export function depths(runbook: Pick<Runbook, "nodes" | "root">): Map<string, number> {
  const byId = nodeMap(runbook);
  const depth = new Map<string, number>([[runbook.root, 0]]);
  const queue = [runbook.root];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const next of byId.get(id)?.next ?? []) {
      if (depth.has(next.to)) continue;
      depth.set(next.to, depth.get(id)! + 1);
      queue.push(next.to);
    }
  }
  return depth;
}
