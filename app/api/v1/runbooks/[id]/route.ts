import { NextResponse } from "next/server";
import { notFound } from "@/lib/http/json";
import { getRunbook } from "@/lib/runbooks/queries";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const runbook = getRunbook(id);
  if (!runbook) return notFound(`no runbook with id "${id}"`, { id });
  return NextResponse.json({
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
  });
}
