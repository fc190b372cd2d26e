import "server-only";
import { z } from "zod";
import { signalLinks } from "@/lib/catalog/signal-links";
import { loadEnv } from "@/lib/env";
import { matchesFleetFilter, parseFleetFilter, type FleetFilter } from "@/lib/fleet/fleet-filter";
import { labelsOf } from "@/lib/fleet/labels";
import { readFleetRows } from "@/lib/fleet/live";
import { getVersionedView, listMonitoredNames } from "@/lib/live/registry";

// /fleet (every watched cluster, worst first, filtered by the address), GET /api/v1/fleet, and one cluster's page
// (/clusters/{name}), which shows what /health shows for it.

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** The API's search parameters, strictly: `state` and `q`, each at most once; anything else is a 400 naming it. */
export const FleetQuery = z.instanceof(URLSearchParams).transform((params, ctx): FleetFilter => {
  for (const key of new Set(params.keys())) {
    if (key !== "state" && key !== "q") ctx.addIssue({ code: "custom", path: [key], message: "unknown parameter: use state and q" });
    else if (params.getAll(key).length > 1) ctx.addIssue({ code: "custom", path: [key], message: "give it once" });
  }
  const { filter, errors } = parseFleetFilter({ state: params.get("state") ?? "", q: params.get("q") ?? "" });
  for (const [key, messages] of Object.entries(errors)) for (const message of messages) ctx.addIssue({ code: "custom", path: [key], message });
  return filter;
});

/** GET /api/v1/fleet: the rows the filter keeps, worst first, and how many clusters there are in all. */
export async function listFleet(filter: FleetFilter) {
  const { rows, storeDown } = await readFleetRows();
  const kept = rows.filter((row) => matchesFleetFilter(row, filter));
  return { count: kept.length, total: rows.length, rows: kept, ...(storeDown ? { storeDown } : {}) };
}

/** /fleet: every row (the browser filters the rows pushes bring with the same rules), the filter and what was wrong in it. */
export async function loadFleetPage(raw: SearchParams) {
  const values = { state: first(raw.state).trim(), q: first(raw.q).trim() };
  const { filter, errors } = parseFleetFilter(values);
  const { rows, storeDown } = await readFleetRows();
  return { rows, storeDown, filter, values, errors, pollSeconds: loadEnv().FAULTLINE_POLL_SECONDS, renderedAt: Date.now() };
}

/** With more than one cluster, the fleet view is where an SRE starts (and /health leads there). */
export const watchesFleet = (): boolean => listMonitoredNames().length > 1;

/** /clusters/{name}: undefined for a name Faultline does not watch (the page answers 404). */
export function loadClusterPage(name: string) {
  if (!listMonitoredNames().includes(name)) return undefined;
  return {
    name,
    labels: labelsOf(name),
    health: getVersionedView(name),
    links: signalLinks(),
    pollSeconds: loadEnv().FAULTLINE_POLL_SECONDS,
    fleet: watchesFleet(),
  };
}
