import "server-only";
import { countCatalog, type CatalogCounts } from "@/lib/catalog/queries";
import { listClusterHealth, listMonitoredNames } from "@/lib/live/registry";

// The landing page: the catalog's counts, and one line per watched cluster.

export interface ClusterSummary {
  name: string;
  state: "ok" | "degraded" | "unknown";
  line: string;
  simulated: boolean;
}

export function loadHomePage(): { counts: CatalogCounts; clusters: ClusterSummary[] } {
  const health = new Map(listClusterHealth().map((h) => [h.name, h]));
  return {
    counts: countCatalog(),
    clusters: listMonitoredNames().map((name) => {
      const h = health.get(name);
      return { name, state: h?.summary.state ?? "unknown", line: h?.summary.line ?? "not read yet", simulated: Boolean(h?.simulated) };
    }),
  };
}
