import { queryOptions } from "@tanstack/react-query";
import type { ClusterHealth } from "@/lib/signals/cluster-health";

// One cluster's health, defined once for every page that shows it (/health, and the live answers of a
// runbook walked for an incident); pushes from the cluster's event stream patch this same entry.

/** The health as GET /api/v1/clusters/{name}/health answers it: with the version pushes build on. */
export type LiveClusterHealth = ClusterHealth & { version?: number };

/** The server answered 202: its monitor has not read the cluster since it (re)started. The page keeps what it has. */
export class HealthNotReadYet extends Error {
  constructor(readonly cluster: string) {
    super(`Faultline has not read cluster ${cluster} since it started`);
  }
}

export async function fetchClusterHealth(cluster: string): Promise<LiveClusterHealth> {
  const response = await fetch(`/api/v1/clusters/${encodeURIComponent(cluster)}/health`, { cache: "no-store" });
  // A 202 carries only { name, summary }: taken as a health, it would blank the page's matrix and signals.
  if (response.status === 202) throw new HealthNotReadYet(cluster);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as LiveClusterHealth;
}

export const clusterHealthQuery = (cluster: string) =>
  queryOptions({
    queryKey: ["clusters", cluster, "health"],
    queryFn: () => fetchClusterHealth(cluster),
  });

/** The cluster's Server-Sent Events: `event: health` carries what changed (lib/live/health-push.ts). */
export const clusterEventsUrl = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/events`;
