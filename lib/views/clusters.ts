import "server-only";
import { NotFound } from "@/lib/errors";
import { getMonitorRole, getVersionedHealth, listClusterHealth, listMonitoredNames } from "@/lib/live/registry";

// The monitored clusters as the API (/api/v1/clusters) shows them, from the registry of the latest health
// (lib/live): one read model per view, as the pages' are.

const NOT_READ = { state: "unknown", line: "not read yet" } as const;

export function listClusters() {
  const health = new Map(listClusterHealth().map((h) => [h.name, h]));
  const clusters = listMonitoredNames().map((name) => {
    const h = health.get(name);
    return {
      name,
      simulated: h?.simulated ?? null,
      summary: h?.summary ?? NOT_READ,
      checkedAt: h?.checkedAt ?? null,
      sourcesDown: h?.sources.filter((s) => !s.up).map((s) => s.name) ?? [],
      // leader: this process reads the cluster; follower: another process does, this one serves its results.
      monitor: getMonitorRole(name),
      url: `/api/v1/clusters/${name}/health`,
      // The cluster's own page (/clusters/{name}).
      page: `/clusters/${encodeURIComponent(name)}`,
    };
  });
  return { clusters };
}

/** A monitored cluster's health, with the version of the last push (lib/live/health-push.ts); `pending` until read once. */
export function readClusterHealth(name: string) {
  if (!listMonitoredNames().includes(name)) throw new NotFound(`no cluster named "${name}"`, { extra: { name, clusters: listMonitoredNames() } });
  const health = getVersionedHealth(name);
  return health ? { health } : { pending: { name, summary: NOT_READ } };
}
