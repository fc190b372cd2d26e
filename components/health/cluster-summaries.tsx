import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { ClusterSummary } from "@/lib/views/home";

const TONE = { ok: "green", degraded: "red", unknown: "orange" } as const;

/** One line per watched cluster, for the landing page. */
export function ClusterSummaries({ clusters }: { clusters: ClusterSummary[] }) {
  if (clusters.length === 0) return null;
  return (
    <ul className="plain cluster-summaries" data-testid="cluster-summaries">
      {clusters.map((c) => (
        <li key={c.name}>
          <Badge tone={TONE[c.state]}>{c.state}</Badge> <Link href={`/clusters/${encodeURIComponent(c.name)}`}>{c.name}</Link>
          {c.simulated ? <span className="muted"> (simulated)</span> : null}: {c.line}
        </li>
      ))}
    </ul>
  );
}
