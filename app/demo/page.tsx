import type { Metadata } from "next";
import { connection } from "next/server";
import { ApiServerSwitch } from "@/components/demo/api-server-switch";
import { ClusterNow } from "@/components/demo/cluster-now";
import { ScenarioTable, type ScenarioRow } from "@/components/demo/scenario-table";
import { getCatalog } from "@/lib/catalog/queries";
import { CATEGORIES } from "@/lib/catalog/schema";
import { getDemoCluster } from "@/lib/demo/runtime";
import { readDemoSnapshot } from "@/lib/demo/snapshot";
import { loadEnv } from "@/lib/env";
import { listScenarios } from "@/lib/demo/cluster/scenarios";

export const metadata: Metadata = { title: "Demo cluster" };

export default async function GameDayPage() {
  await connection();
  const demo = await getDemoCluster();
  if (!demo) {
    return (
      <>
        <h1>Demo cluster</h1>
        <p className="callout">
          The demo cluster is not running, so there is nothing to inject into. It runs by default; it is off when
          <code> FAULTLINE_DEMO=off</code>, or when it failed to start (the server log says why). A standalone one
          runs with <code>npm run demo</code>.
        </p>
      </>
    );
  }
  const { entries } = getCatalog();
  const byId = new Map(entries.map((e) => [e.id, e]));
  const categoryName = new Map<string, string>(CATEGORIES.map((c) => [c.id, c.name]));
  const rows: ScenarioRow[] = listScenarios(demo.cluster).map((s) => {
    const entry = s.catalog ? byId.get(s.catalog) : undefined;
    const group = s.api ? "API server faults" : entry ? (categoryName.get(entry.category) ?? entry.category) : "Health reporting";
    return { ...s, catalogTitle: entry?.title, group };
  });
  const nodes = demo.cluster.model.nodes.filter((n) => !n.name.endsWith("-replacement")).map((n) => n.name);
  const interval = loadEnv().FAULTLINE_DEMO_INTERVAL_SECONDS;
  return (
    <>
      <h1>Demo cluster</h1>
      <p className="lead">
        Rehearse failures on the simulated cluster. Each scenario reproduces a catalog failure mode in the objects,
        endpoints and metrics Faultline reads; clear it to put the cluster back. The health reporters write every{" "}
        {interval} s.
      </p>
      <p className="muted" style={{ fontSize: "0.85rem" }} data-testid="kubectl-command">
        Point kubectl at it (TLS, verified with the cluster&apos;s own CA in the kubeconfig):{" "}
        <code>KUBECONFIG={demo.sim.kubeconfigPath} kubectl get nodes,kubeapiservers -o wide</code>, or watch one kind:{" "}
        <code>KUBECONFIG={demo.sim.kubeconfigPath} kubectl get kubeapiservers -w</code>. Read-only;{" "}
        <code>--context demo-admin</code> may write.
      </p>
      <div className="two-col">
        <ScenarioTable rows={rows} nodes={nodes} refreshSeconds={Math.min(interval, 10)} />
        <aside className="sticky">
          <ApiServerSwitch initiallyUp={demo.sim.server.running} />
          <ClusterNow snapshot={readDemoSnapshot(demo.cluster)} intervalSeconds={interval} />
        </aside>
      </div>
    </>
  );
}
