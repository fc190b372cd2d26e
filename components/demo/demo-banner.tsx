import Link from "next/link";
import { connection } from "next/server";
import { getDemoCluster } from "@/lib/demo/runtime";

/** On every page while the demo cluster runs: nobody should mistake it for a real cluster. */
export async function DemoBanner() {
  await connection();
  const demo = await getDemoCluster();
  if (!demo) return null;
  return (
    <aside className="demo-banner" aria-label="Simulated cluster" data-testid="demo-banner">
      <strong>Simulated cluster.</strong> Faultline is watching its built-in demo cluster ({demo.cluster.model.nodes.length} simulated control-plane nodes), not
      a real one. Rehearse failures on the <Link href="/demo">Demo cluster</Link> page.
    </aside>
  );
}
