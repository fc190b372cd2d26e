import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import { CATEGORIES } from "@/lib/catalog/schema";
import type { DemoCluster } from "@/lib/demo/cluster/cluster";
import { listScenarios } from "@/lib/demo/cluster/scenarios";
import { getDemoCluster } from "@/lib/demo/runtime";
import { readDemoSnapshot } from "@/lib/demo/snapshot";
import { loadEnv } from "@/lib/env";

// /demo: the scenarios with the catalog entry each reproduces, grouped as the catalog groups them, and the
// simulated cluster as it is now. Undefined while the demo cluster is not running.

export async function loadDemoPage() {
  const demo = await getDemoCluster();
  if (!demo) return undefined;
  const interval = loadEnv().FAULTLINE_DEMO_INTERVAL_SECONDS;
  return {
    rows: scenarioRows(demo.cluster),
    nodes: demo.cluster.model.nodes.filter((n) => !n.name.endsWith("-replacement")).map((n) => n.name),
    intervalSeconds: interval,
    kubeconfigPath: demo.sim.kubeconfigPath,
    apiServerUp: demo.sim.server.running,
    snapshot: readDemoSnapshot(demo.cluster),
  };
}

/** Each scenario with its catalog entry's title and a group: API server faults, the entry's category, or health reporting. */
export function scenarioRows(cluster: DemoCluster) {
  const byId = new Map(getCatalog().entries.map((e) => [e.id, e]));
  const categoryName = new Map<string, string>(CATEGORIES.map((c) => [c.id, c.name]));
  return listScenarios(cluster).map((s) => {
    const entry = s.catalog ? byId.get(s.catalog) : undefined;
    const group = s.api ? "API server faults" : entry ? (categoryName.get(entry.category) ?? entry.category) : "Health reporting";
    return { ...s, catalogTitle: entry?.title, group };
  });
}
