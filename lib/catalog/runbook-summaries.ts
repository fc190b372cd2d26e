import "server-only";
import { NotFound } from "@/lib/errors";
import { getRunbook, listRunbooks } from "./runbooks";

// Runbooks as the API serves them: a summary each, or one whole with its chart.

export function listRunbookSummaries() {
  const runbooks = listRunbooks().map((r) => ({
    id: r.id,
    title: r.title,
    symptom: r.symptom,
    components: r.components,
    source: { seed: r.source.seed, section: r.source.section },
    root: r.root,
    steps: r.nodes.length,
    url: `/runbooks/${r.id}`,
  }));
  return { count: runbooks.length, runbooks };
}

export function readRunbookDetail(id: string) {
  const runbook = getRunbook(id);
  if (!runbook) throw new NotFound(`no runbook with id "${id}"`, { extra: { id } });
  return {
    id: runbook.id,
    title: runbook.title,
    symptom: runbook.symptom,
    components: runbook.components,
    source: { seed: runbook.source.seed, section: runbook.source.section },
    quickChecks: runbook.quickChecks,
    root: runbook.root,
    nodes: runbook.nodes,
    edges: runbook.chart.edges.map(({ from, to, label }) => ({ from, to, ...(label ? { label } : {}) })),
    flowchart: runbook.flowchart,
  };
}
