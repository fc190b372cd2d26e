import { NextResponse } from "next/server";
import { getDemoCluster } from "@/lib/demo/runtime";
import { ScenarioChange } from "@/lib/demo/schemas";
import { listScenarios, ScenarioError, setScenario } from "@/lib/sim/scenarios";

type Params = { params: Promise<{ id: string }> };

async function change(request: Request, { params }: Params, on: boolean) {
  const { id } = await params;
  const demo = await getDemoCluster();
  if (!demo) return NextResponse.json({ error: "the demo cluster is not running" }, { status: 409 });
  let raw: unknown = {};
  const text = await request.text();
  if (text.trim()) {
    try {
      raw = JSON.parse(text);
    } catch {
      return NextResponse.json({ error: "invalid request", fields: { body: ["must be JSON"] } }, { status: 400 });
    }
  }
  const parsed = ScenarioChange.safeParse(raw);
  if (!parsed.success) {
    return NextResponse.json({ error: "invalid request", fields: parsed.error.flatten().fieldErrors }, { status: 400 });
  }
  try {
    await setScenario(demo.cluster, id, on, parsed.data);
  } catch (error) {
    if (error instanceof ScenarioError) return NextResponse.json({ error: error.message }, { status: error.status });
    throw error;
  }
  return NextResponse.json({ scenarios: listScenarios(demo.cluster) });
}

/** Inject a scenario into the demo cluster. Body (optional): { node?, variant? }. */
export function POST(request: Request, context: Params) {
  return change(request, context, true);
}

/** Clear it. */
export function DELETE(request: Request, context: Params) {
  return change(request, context, false);
}
