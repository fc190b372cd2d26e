import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import { connection } from "next/server";
import { ClusterHealthView } from "@/components/health/cluster-health-view";
import { loadHealthPage } from "@/lib/views/health";

export const metadata: Metadata = { title: "Live health" };

export default async function HealthPage() {
  await pageAccess("viewer");
  await connection();
  const { clusters, links, pollSeconds } = loadHealthPage();
  return (
    <>
      <h1>Live health</h1>
      <p className="lead">
        Per-node, per-plugin KMS health read from the health reports themselves (the conditions say True even when a plugin is down), the API server&apos;s
        kms-providers check, OpenBao and the protection stack. Updated every {pollSeconds} s.
      </p>
      {clusters.length === 0 ? <p className="callout">No cluster is being watched: set FAULTLINE_CLUSTERS_FILE, or leave FAULTLINE_DEMO on.</p> : null}
      {clusters.map(({ name, health }) =>
        health ? (
          <ClusterHealthView key={name} initial={health} links={links} pollMs={pollSeconds * 1000} />
        ) : (
          <p key={name} className="callout">
            {name}: the first reading has not finished yet; reload in a moment.
          </p>
        ),
      )}
    </>
  );
}
