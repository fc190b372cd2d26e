import { NextResponse } from "next/server";
import { getDemoCluster } from "@/lib/demo/runtime";
import { DEMO_BODY_LIMIT, ScenarioChange } from "@/lib/demo/schemas";
import { conflict } from "@/lib/http/json";
import { parseBody } from "@/lib/http/read-json";
import { listScenarios, ScenarioError, setScenario } from "@/lib/demo/cluster/scenarios";

type Params = { params: Promise<{ id: string }> };

async function change(request: Request, { params }: Params, on: boolean) {
  const { id } = await params;
  const body = await parseBody(request, ScenarioChange, DEMO_BODY_LIMIT);
  if ("response" in body) return body.response;
  const demo = await getDemoCluster();
  if (!demo) return conflict("the demo cluster is not running");
  try {
    await setScenario(demo.cluster, id, on, body.data);
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
