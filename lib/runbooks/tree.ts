import type { Flowchart, FlowIssue, FlowNode } from "./flowchart";

// The rules that make a flowchart a decision tree an on-call can walk (docs/runbook-format.md).

export type LeafKind = "action" | "diagnosis";

export interface TreeCheckInput {
  chart: Flowchart;
  /** kind declared in the runbook's steps, per node id */
  leafKinds: Map<string, string | undefined>;
}

export function outgoing(chart: Flowchart, id: string) {
  return chart.edges.filter((e) => e.from === id);
}

export function findRoot(chart: Flowchart): FlowNode | undefined {
  const targets = new Set(chart.edges.map((e) => e.to));
  const roots = chart.nodes.filter((n) => !targets.has(n.id));
  return roots.length === 1 ? roots[0] : undefined;
}

export function checkTree({ chart, leafKinds }: TreeCheckInput): FlowIssue[] {
  const issues: FlowIssue[] = [];
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const targets = new Set(chart.edges.map((e) => e.to));
  const roots = chart.nodes.filter((n) => !targets.has(n.id));
  if (roots.length === 0) issues.push({ line: chart.nodes[0]?.line ?? 1, message: "no start node: every node has an incoming edge, so the chart is a cycle" });
  if (roots.length > 1) {
    for (const extra of roots.slice(1)) {
      issues.push({ line: extra.line, message: `node ${extra.id} is unreachable: nothing leads to it (the start node is ${roots[0].id})` });
    }
  }

  // A cycle: a back edge found by depth-first search from every node.
  const state = new Map<string, "open" | "done">();
  const visit = (id: string) => {
    state.set(id, "open");
    for (const edge of outgoing(chart, id)) {
      const s = state.get(edge.to);
      if (s === "open") issues.push({ line: edge.line, message: `cycle: ${edge.from} --> ${edge.to} leads back to a step already on the path` });
      else if (!s) visit(edge.to);
    }
    state.set(id, "done");
  };
  for (const node of chart.nodes) if (!state.has(node.id)) visit(node.id);

  if (roots.length >= 1) {
    const reached = new Set<string>();
    const stack = [roots[0].id];
    while (stack.length) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      for (const edge of outgoing(chart, id)) stack.push(edge.to);
    }
    for (const node of chart.nodes) {
      if (!reached.has(node.id) && !roots.includes(node)) {
        issues.push({ line: node.line, message: `node ${node.id} is unreachable from the start node ${roots[0].id}` });
      }
    }
  }

  for (const node of chart.nodes) {
    const out = outgoing(chart, node.id);
    if (node.shape === "question") {
      if (out.length < 2) {
        issues.push({ line: node.line, message: `question ${node.id} needs at least two answers; a step with one way on is written ${node.id}[...]` });
      }
      const unlabelled = out.filter((e) => !e.label);
      for (const edge of unlabelled)
        issues.push({
          line: edge.line,
          message: `answer ${edge.from} --> ${edge.to} of question ${node.id} has no label; write ${edge.from} -->|Yes| ${edge.to}`,
        });
      const seen = new Map<string, number>();
      for (const edge of out) {
        if (!edge.label) continue;
        const key = edge.label.toLowerCase();
        if (seen.has(key)) issues.push({ line: edge.line, message: `question ${node.id} has the answer "${edge.label}" twice` });
        seen.set(key, edge.line);
      }
    } else if (out.length > 1) {
      issues.push({
        line: node.line,
        message: `step ${node.id} has ${out.length} ways on; a branching step must be a question ${node.id}{...} with labelled answers`,
      });
    }
    if (out.length === 0) {
      const kind = leafKinds.get(node.id);
      if (kind !== "action" && kind !== "diagnosis") {
        issues.push({ line: node.line, message: `leaf ${node.id} must be an action or a diagnosis: add steps.${node.id}.kind: action | diagnosis` });
      }
    }
    if (!byId.has(node.id)) issues.push({ line: node.line, message: `unknown node ${node.id}` });
  }
  return issues;
}
