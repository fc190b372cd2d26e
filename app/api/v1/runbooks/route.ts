import { NextResponse } from "next/server";
import { listRunbooks } from "@/lib/runbooks/queries";

export function GET() {
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
  return NextResponse.json({ count: runbooks.length, runbooks });
}
