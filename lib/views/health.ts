import "server-only";
import { signalLinks, type SignalLinks } from "@/lib/catalog/signal-links";
import { loadEnv } from "@/lib/env";
import type { ClusterHealth } from "@/lib/health/cluster-health";
import { listClusterHealth, listMonitoredNames } from "@/lib/monitor/monitor";

// /health: every watched cluster's latest reading (or none yet), and where each signal leads.

export interface HealthPageData {
  pollSeconds: number;
  /** In the order the clusters are configured; `health` is missing until the first reading finishes. */
  clusters: { name: string; health?: ClusterHealth }[];
  links: SignalLinks;
}

export function loadHealthPage(): HealthPageData {
  const health = new Map(listClusterHealth().map((h) => [h.name, h]));
  return {
    pollSeconds: loadEnv().FAULTLINE_POLL_SECONDS,
    clusters: listMonitoredNames().map((name) => ({ name, health: health.get(name) })),
    links: signalLinks(),
  };
}
