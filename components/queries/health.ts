import { queryOptions } from "@tanstack/react-query";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { getJson } from "./http";

// One cluster's health, defined once for every page that shows it (/health, and the live answers of a
// runbook walked for an incident); pushes from the cluster's event stream patch this same entry.

/** The health as GET /api/v1/clusters/{name}/health answers it: with the version pushes build on. */
export type LiveClusterHealth = ClusterHealth & { version?: number };

export const clusterHealthQuery = (cluster: string) =>
  queryOptions({
    queryKey: ["clusters", cluster, "health"],
    queryFn: () => getJson<LiveClusterHealth>(`/api/v1/clusters/${encodeURIComponent(cluster)}/health`),
  });

/** The cluster's Server-Sent Events: `event: health` carries what changed (lib/live/health-push.ts). */
export const clusterEventsUrl = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/events`;
