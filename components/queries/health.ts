import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import type { HealthInView } from "@/lib/signals/health-view";
import type { MatrixServer, RowFilter, RowsPage } from "@/lib/signals/health-rows";

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

/** GET /api/v1/clusters/{name}/health (the whole health), or its summary view with `?view=summary`. */
async function getHealth(cluster: string, search: string): Promise<Response> {
  const response = await fetch(`/api/v1/clusters/${encodeURIComponent(cluster)}/health${search}`, { cache: "no-store" });
  // A 202 carries only { name, summary }: taken as a health, it would blank the page's matrix and signals.
  if (response.status === 202) throw new HealthNotReadYet(cluster);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response;
}

export async function fetchClusterHealth(cluster: string): Promise<LiveClusterHealth> {
  return (await (await getHealth(cluster, "")).json()) as LiveClusterHealth;
}

/** The summary view (lib/signals/health-view.ts): its own shape, every count but only the rows and checks that need attention. */
export async function fetchHealthView(cluster: string): Promise<LiveHealthView> {
  return (await (await getHealth(cluster, "?view=summary")).json()) as LiveHealthView;
}

export const clusterHealthQuery = (cluster: string) =>
  queryOptions({
    queryKey: ["clusters", cluster, "health"],
    queryFn: () => fetchClusterHealth(cluster),
  });

/** The summary view /health holds (lib/signals/health-view.ts): counts, the rows and checks that need attention. */
export type LiveHealthView = HealthInView & { version?: number };

export const clusterHealthViewQuery = (cluster: string) =>
  queryOptions({
    queryKey: ["clusters", cluster, "health", "summary"],
    queryFn: () => fetchHealthView(cluster),
  });

export type RowsAnswer = RowsPage & { cluster: string; version: number; checkedAt: string };

/** A matrix's rows of one state, page by page (the rows the summary leaves out, fetched on demand). */
export const healthRowsQuery = (cluster: string, server: MatrixServer, state: RowFilter, from: string | null, limit = 200) =>
  infiniteQueryOptions({
    queryKey: ["clusters", cluster, "health", "rows", server, state, from],
    initialPageParam: from,
    queryFn: async ({ pageParam }): Promise<RowsAnswer> => {
      const search = new URLSearchParams({ view: "rows", server, state, limit: String(limit), ...(pageParam ? { cursor: pageParam } : {}) });
      const response = await fetch(`/api/v1/clusters/${encodeURIComponent(cluster)}/health?${search}`, { cache: "no-store" });
      if (response.status === 202) throw new HealthNotReadYet(cluster);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as RowsAnswer;
    },
    getNextPageParam: (last) => last.nextCursor,
  });

/** The cluster's Server-Sent Events: `event: health` carries what changed (lib/live/health-push.ts); of the summary view with `view`. */
export const clusterEventsUrl = (cluster: string, view?: "summary") => `/api/v1/clusters/${encodeURIComponent(cluster)}/events${view ? `?view=${view}` : ""}`;
