import { NextResponse } from "next/server";
import { getDemoCluster } from "@/lib/demo/runtime";
import { readDemoSnapshot } from "@/lib/demo/snapshot";
import { listScenarios } from "@/lib/demo/cluster/scenarios";

export const dynamic = "force-dynamic";

export async function GET() {
  const demo = await getDemoCluster();
  if (!demo) return NextResponse.json({ running: false, error: "the demo cluster is not running (FAULTLINE_DEMO=off, or it failed to start: see the server log)" }, { status: 404 });
  return NextResponse.json({
    running: true,
    simulated: true,
    url: demo.sim.endpoints.url,
    kubeconfig: demo.sim.kubeconfigPath,
    scenarios: listScenarios(demo.cluster),
    now: readDemoSnapshot(demo.cluster),
  });
}
