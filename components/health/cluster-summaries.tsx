import Link from "next/link";
import { connection } from "next/server";
import { Badge } from "@/components/ui/badge";
import { listClusterHealth, listMonitoredNames } from "@/lib/monitor/monitor";

const TONE = { ok: "green", degraded: "red", unknown: "orange" } as const;

/** One line per watched cluster, for the landing page. */
export async function ClusterSummaries() {
  await connection();
  const health = new Map(listClusterHealth().map((h) => [h.name, h]));
  const names = listMonitoredNames();
  if (names.length === 0) return null;
  return (
    <ul className="plain cluster-summaries" data-testid="cluster-summaries">
      {names.map((name) => {
        const h = health.get(name);
        const state = h?.summary.state ?? "unknown";
        return (
          <li key={name}>
            <Badge tone={TONE[state]}>{state}</Badge> <Link href="/health">{name}</Link>
            {h?.simulated ? <span className="muted"> (simulated)</span> : null}: {h?.summary.line ?? "not read yet"}
          </li>
        );
      })}
    </ul>
  );
}
