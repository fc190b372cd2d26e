import "server-only";
import { getDb } from "@/lib/db/client";
import { labelValue } from "./signal-series";

// What the exporter reads from the database: unresolved incidents by cluster and severity for
// faultline_incidents_open (one grouped count, kept for a few seconds so any number of scrapers costs one query per
// interval), and the stored start of each signal's state once per cluster.

/** Clusters named in the gauge; incidents of the others (alerts may name any cluster) are summed under OTHER. */
export const INCIDENT_CLUSTERS_LIMIT = 100;
export const OTHER_CLUSTERS = "_other";
export const INCIDENT_SEVERITIES = ["critical", "warning", "info"] as const;
const CACHE_MS = 5_000;

export interface OpenCount {
  cluster: string;
  severity: string;
  count: number;
}

let cached: { at: number; counts: Promise<OpenCount[]> } | undefined;
/** The last failure logged: the same reason is logged once, not at every scrape. */
let logged: string | undefined;

/** The counts, or undefined when the database cannot answer (the gauge is then left out, not zeroed). */
export async function countOpenIncidents(now = Date.now()): Promise<OpenCount[] | undefined> {
  if (!cached || now - cached.at > CACHE_MS) cached = { at: now, counts: query() };
  try {
    const counts = await cached.counts;
    logged = undefined;
    return counts;
  } catch (error) {
    cached = undefined;
    const reason = String((error as Error).message)
      .split("\n")
      .pop()
      ?.slice(0, 200);
    if (reason !== logged) console.warn(`[faultline] /metrics: could not count open incidents (left out until it can): ${reason}`);
    logged = reason;
    return undefined;
  }
}

/** The stored start of each signal's state in a cluster, for since-when after a restart; none when the database cannot answer. */
export async function loadStoredSince(cluster: string): Promise<{ signal: string; subject: string; state: string; since: number }[]> {
  try {
    const rows = await getDb().signalState.findMany({ where: { cluster }, select: { signal: true, subject: true, state: true, since: true } });
    return rows.map((r) => ({ signal: r.signal, subject: labelValue(r.subject), state: r.state, since: r.since.getTime() }));
  } catch {
    return []; // the process's own first sight stands
  }
}

async function query(): Promise<OpenCount[]> {
  const rows = await getDb().incident.groupBy({ by: ["cluster", "severity"], where: { status: { not: "resolved" } }, _count: { _all: true } });
  return boundClusters(rows.map((r) => ({ cluster: r.cluster, severity: r.severity, count: r._count._all })));
}

/** Keeps the clusters with the most open incidents (then by name), sums the rest; severities outside the set count as warning. */
export function boundClusters(rows: OpenCount[], limit = INCIDENT_CLUSTERS_LIMIT): OpenCount[] {
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.cluster, (totals.get(r.cluster) ?? 0) + r.count);
  const named = new Set(
    [...totals]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([c]) => c),
  );
  const out = new Map<string, OpenCount>();
  for (const r of rows) {
    const cluster = named.has(r.cluster) ? labelValue(r.cluster) : OTHER_CLUSTERS;
    const severity = (INCIDENT_SEVERITIES as readonly string[]).includes(r.severity) ? r.severity : "warning";
    const key = `${cluster}\u0000${severity}`;
    const held = out.get(key) ?? { cluster, severity, count: 0 };
    held.count += r.count;
    out.set(key, held);
  }
  return [...out.values()];
}
