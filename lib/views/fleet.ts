import "server-only";
import { z } from "zod";
import { signalLinks } from "@/lib/catalog/signal-links";
import { loadEnv } from "@/lib/env";
import { matchesFleetFilter, parseFleetFilter, type FleetFilter } from "@/lib/fleet/fleet-filter";
import { labelsOf } from "@/lib/fleet/labels";
import { fleetMark, readFleetRows } from "@/lib/fleet/live";
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
async function fleetAnswer(filter: FleetFilter) {
  const { rows, storeDown, basis } = await readFleetRows();
  const kept = rows.filter((row) => matchesFleetFilter(row, filter));
  return { basis, answer: { count: kept.length, total: rows.length, rows: kept, ...(storeDown ? { storeDown } : {}) } };
}

/**
 * How long one written answer serves every client asking for the same filter while nothing changed: a row's read
 * time in it is at most this much older than the monitor's. Any change heard (a health, an incident, a row turning
 * stale) writes it again for the next request.
 */
export const FLEET_ANSWER_MS = 500;
/** Distinct filters whose answers are kept; the oldest goes first. */
const MAX_ANSWERS = 32;
const answers = new Map<string, { basis: object; heard: number; at: number; text: string }>();

/** The fleet's answer as JSON text, written once for every dashboard polling the same filter (200 of them at 100 clusters). */
export async function listFleetText(filter: FleetFilter, now = Date.now): Promise<string> {
  const key = JSON.stringify(filter);
  const held = answers.get(key);
  const mark = fleetMark();
  if (held && now() - held.at < FLEET_ANSWER_MS && mark.heard === held.heard && mark.basis === held.basis) return held.text;
  const at = now();
  const { basis, answer } = await fleetAnswer(filter);
  const text = JSON.stringify(answer);
  answers.delete(key);
  // Kept under the count heard before the read: a change heard during it makes the next request read again.
  answers.set(key, { basis, heard: mark.heard, at, text });
  if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
  return text;
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
