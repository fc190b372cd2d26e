import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import { connection } from "next/server";
import { ApiServerSwitch } from "@/components/demo/api-server-switch";
import { ClusterNow } from "@/components/demo/cluster-now";
import { ScenarioTable } from "@/components/demo/scenario-table";
import { loadDemoPage } from "@/lib/views/demo";

export const metadata: Metadata = { title: "Demo cluster" };

export default async function DemoPage() {
  await pageAccess("viewer");
  await connection();
  const demo = await loadDemoPage();
  if (!demo) {
    return (
      <>
        <h1>Demo cluster</h1>
        <p className="callout">
          The demo cluster is not running, so there is nothing to inject into. It runs by default; it is off when
          <code> FAULTLINE_DEMO=off</code>, or when it failed to start (the server log says why). A standalone one runs with <code>npm run demo</code>.
        </p>
      </>
    );
  }
  const interval = demo.intervalSeconds;
  return (
    <>
      <h1>Demo cluster</h1>
      <p className="lead">
        Rehearse failures on the simulated cluster. Each scenario reproduces a catalog failure mode in the objects, endpoints and metrics Faultline reads; clear
        it to put the cluster back. The health reporters write every {interval} s.
      </p>
      <p className="muted" style={{ fontSize: "0.85rem" }} data-testid="kubectl-command">
        Point kubectl at it (TLS, verified with the cluster&apos;s own CA in the kubeconfig):{" "}
        <code>KUBECONFIG={demo.kubeconfigPath} kubectl get nodes,kubeapiservers -o wide</code>, or watch one kind:{" "}
        <code>KUBECONFIG={demo.kubeconfigPath} kubectl get kubeapiservers -w</code>. Read-only; <code>--context demo-admin</code> may write.
      </p>
      <div className="two-col">
        <ScenarioTable rows={demo.rows} nodes={demo.nodes} refreshSeconds={Math.min(interval, 10)} />
        <aside className="sticky">
          <ApiServerSwitch initiallyUp={demo.apiServerUp} />
          <ClusterNow snapshot={demo.snapshot} intervalSeconds={interval} />
        </aside>
      </div>
    </>
  );
}
