import { FLEET_STATES, type FleetRow } from "@/lib/fleet/fleet-row";
import { applyHealthPush, type HealthPush } from "@/lib/live/health-push";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { isHealthInView, type HealthInView } from "@/lib/signals/health-view";

// What the browser does with a server push, as plain functions (the hook in use-live.ts only wires them to
// EventSource and the query cache). The stream is ours, but its text is still parsed before it is trusted.

type Cached = ClusterHealth & { version?: number };

/** Apply the pushed change; ignore one the cache already has; fetch the whole health once when it cannot follow. */
export type HealthStep<T = ClusterHealth> = { kind: "apply"; data: T & { version: number } } | { kind: "ignore" } | { kind: "fetch" };

export function nextHealth(cached: Cached | undefined, push: HealthPush): HealthStep {
  const held = cached && isVersioned(cached) ? cached : undefined;
  if (held && push.version <= held.version) return { kind: "ignore" };
  // A whole health (base null) needs nothing cached; a change needs the version it builds on.
  if (!held && push.base !== null) return { kind: "fetch" };
  const data = applyHealthPush(held, push);
  return data ? { kind: "apply", data } : { kind: "fetch" };
}

/** The same step for the summary view a page holds (pushes of `?view=summary` carry its own parts, such as the tally). */
export function nextHealthView(cached: (HealthInView & { version?: number }) | undefined, push: HealthPush): HealthStep<HealthInView> {
  const step = nextHealth(cached, push);
  if (step.kind !== "apply") return step;
  return isHealthInView(step.data) ? { kind: "apply", data: step.data } : { kind: "fetch" };
}

export function parseHealthPush(text: string, cluster: string): HealthPush | undefined {
  const push = parseObject(text);
  return push && isHealthPush(push) && push.cluster === cluster ? push : undefined;
}

/** A push's envelope (cluster, versions, a patch object); the patch is applied by lib/live/health-push.ts. */
function isHealthPush(push: Record<string, unknown>): push is Record<string, unknown> & HealthPush {
  if (typeof push.cluster !== "string" || !isVersion(push.version)) return false;
  if (push.base !== null && !isVersion(push.base)) return false;
  return typeof push.patch === "object" && push.patch !== null;
}

const isVersioned = <T extends { version?: number }>(health: T): health is T & { version: number } => typeof health.version === "number";

/** The incident ids an `event: incidents` push names, or undefined for text that is not such a push. */
export function parseIncidentPush(text: string): number[] | undefined {
  const push = parseObject(text);
  if (!push || !isVersion(push.version) || !Array.isArray(push.ids)) return undefined;
  return push.ids.every((id) => Number.isSafeInteger(id) && id > 0) ? (push.ids as number[]) : undefined;
}

/** A page refetches only for a push that names an incident it shows (`shows` undefined: a list, so any incident). */
export function concernsPage(pushed: number[], shows: number[] | undefined): boolean {
  if (pushed.length === 0) return false;
  return shows === undefined || pushed.some((id) => shows.includes(id));
}

/** The incident's signals as one comparable text, from the cluster's health or from the incident's own answer. */
export function signalsKey(signals: { signal: string; subject: string; state: string; detail: string }[]): string {
  return signals
    .map((s) => JSON.stringify([s.signal, s.subject, s.state, s.detail]))
    .sort()
    .join("\n");
}

/** A fleet push (lib/fleet/live.ts): every row, or the rows that changed; undefined for text that is not one. */
export interface FleetPushData {
  full: boolean;
  rows: FleetRow[];
  storeDown?: string;
}

export function parseFleetPush(text: string): FleetPushData | undefined {
  const push = parseObject(text);
  if (!push || typeof push.full !== "boolean" || !Array.isArray(push.rows) || !push.rows.every(isFleetRow)) return undefined;
  if (push.storeDown !== undefined && typeof push.storeDown !== "string") return undefined;
  return { full: push.full, rows: push.rows, ...(typeof push.storeDown === "string" ? { storeDown: push.storeDown } : {}) };
}

const isStringOrNull = (v: unknown) => v === null || typeof v === "string";

/** What rendering a row relies on: a row that lacks it is not taken (the page refetches instead). */
function isFleetRow(value: unknown): value is FleetRow {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.name === "string" &&
    (FLEET_STATES as readonly unknown[]).includes(row.state) &&
    typeof row.line === "string" &&
    isStringOrNull(row.since) &&
    isStringOrNull(row.readAt) &&
    typeof row.labels === "object" &&
    row.labels !== null &&
    Object.values(row.labels).every((v) => typeof v === "string") &&
    typeof row.moreFailing === "number" &&
    Array.isArray(row.failing) &&
    row.failing.every((f: { component?: unknown; count?: unknown }) => typeof f?.component === "string" && typeof f.count === "number") &&
    (row.incidents === null || (typeof row.incidents === "object" && typeof (row.incidents as { open?: unknown }).open === "number"))
  );
}

/** The rows a page holds after a push: all replaced by a full push, else the pushed ones by name; undefined: fetch them. */
export function applyFleetPush(held: { rows: FleetRow[] } | undefined, push: FleetPushData): { rows: FleetRow[]; storeDown?: string } | undefined {
  const storeDown = push.storeDown ? { storeDown: push.storeDown } : {};
  if (push.full) return { rows: push.rows, ...storeDown };
  if (!held) return undefined;
  const pushed = new Map(push.rows.map((row) => [row.name, row]));
  const rows = held.rows.map((row) => pushed.get(row.name) ?? row);
  const known = new Set(held.rows.map((row) => row.name));
  return { rows: [...rows, ...push.rows.filter((row) => !known.has(row.name))], ...storeDown };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isVersion = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
