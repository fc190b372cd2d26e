import type { Metadata } from "next";
import { connection } from "next/server";
import { ClusterHealthView, type SignalLinks } from "@/components/health/cluster-health-view";
import { getCatalog } from "@/lib/catalog/queries";
import { loadEnv } from "@/lib/env";
import { listClusterHealth, listMonitoredNames } from "@/lib/monitor/monitor";

export const metadata: Metadata = { title: "Live health" };

/** Every signal id with the catalog entries that it detects and the runbooks that ask about it. */
function signalLinks(): SignalLinks {
  const { entries, runbooks, signals } = getCatalog();
  return Object.fromEntries(
    signals.map((s) => [
      s.id,
      {
        catalog: entries.filter((e) => e.kind === "failure-mode" && e.signals.includes(s.id)).slice(0, 6).map((e) => ({ id: e.id, title: e.title })),
        runbooks: runbooks.filter((r) => r.nodes.some((n) => n.signal === s.id)).map((r) => ({ id: r.id, title: r.title })),
      },
    ]),
  );
}

export default async function HealthPage() {
  await connection();
  const health = listClusterHealth();
  const names = listMonitoredNames();
  const links = signalLinks();
  return (
    <>
      <h1>Live health</h1>
      <p className="lead">
        Per-node, per-plugin KMS health read from the health reports themselves (the conditions say True even when a
        plugin is down), the API server&apos;s kms-providers check, OpenBao and the protection stack. Updated every{" "}
        {loadEnv().FAULTLINE_POLL_SECONDS} s.
      </p>
      {names.length === 0 ? <p className="callout">No cluster is being watched: set FAULTLINE_CLUSTERS_FILE, or leave FAULTLINE_DEMO on.</p> : null}
      {names.map((name) => {
        const initial = health.find((h) => h.name === name);
        return initial ? (
          <ClusterHealthView key={name} initial={initial} links={links} pollMs={loadEnv().FAULTLINE_POLL_SECONDS * 1000} />
        ) : (
          <p key={name} className="callout">{name}: the first reading has not finished yet; reload in a moment.</p>
        );
      })}
    </>
  );
}
