import { createHash } from "node:crypto";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import type { KmsMatrix } from "@/lib/model/kms-types";
import { classifyRows, viewOfHealth, type HealthInView, type HealthRow } from "@/lib/signals/health-view";
import { processSlot } from "@/lib/process-slot";
import { emitHealth, emitHealthView, listensToWholeHealth } from "./bus";
import { diffHealth, type HealthPush } from "./health-push";

// The latest ClusterHealth of every monitored cluster in this process, with its version: pages and APIs read
// it from memory (any number of open tabs costs the cluster nothing). A new health that a viewer would notice
// gets the next version and goes out on the bus as a push of what changed since the last one.

/** starting: the process has not yet learnt whether it leads (readiness waits for it); alone: no database, no lease. */
export type MonitorRole = "starting" | "leader" | "follower" | "alone";

interface Entry {
  role: MonitorRole;
  health?: ClusterHealth;
  /** The health as of `version`: what the next push is a diff from. */
  pushed?: ClusterHealth;
  /** Its view (lib/signals/health-view.ts): what the next push of the view is a diff from. */
  pushedView?: HealthInView;
  /** The view of `health`, made when first asked for. */
  view?: HealthInView;
  version: number;
  /** healthDigest of `health`: a new health with the same digest changes nothing a viewer sees. */
  digest?: string;
}

const registry = processSlot<Map<string, Entry>>("live-registry");

function entries(): Map<string, Entry> {
  return registry.getOrCreate(() => new Map());
}

/** A cluster is monitored from now on (again: its health and version carry over). */
export function registerCluster(name: string, role: MonitorRole = "alone"): void {
  const entry = entries().get(name);
  if (entry) entry.role = role;
  // Versions start at the clock so a restarted process never reuses one that a page still holds.
  else entries().set(name, { role, version: Date.now() });
}

export function setMonitorRole(name: string, role: MonitorRole): void {
  const entry = entries().get(name);
  if (entry) entry.role = role;
}

/** What a viewer would notice: statuses, reasons, signal states, sources up or down; not the clock. */
export function healthDigest(health: ClusterHealth): string {
  const visible = {
    summary: health.summary,
    cells: health.matrix?.cells.map((c) => [c.node, c.keyID, c.status, c.kekID, c.detail, c.stale, c.future, c.orphaned]),
    rows: health.matrix?.rows.map((r) => [r.node, r.state]),
    servers: health.serverMatrices?.map((m) => [m.server, m.matrix.cells.map((c) => [c.node, c.keyID, c.status, c.detail, c.stale])]),
    signals: health.signals.map((s) => [s.id, s.subject, s.state]),
    sources: health.sources.map((s) => [s.name, s.up]),
    disagreement: health.disagreement,
    // A follower's page shows how old the leader's reading is: each new read time of the leader is a push there.
    replica: health.replica ? { ...health.replica, readAt: health.checkedAt } : undefined,
  };
  return createHash("sha1").update(JSON.stringify(visible)).digest("hex");
}

/** Keeps a cluster's new health; pushes what changed when a viewer would notice. Returns the push, if any. */
export function publishHealth(health: ClusterHealth): HealthPush | undefined {
  if (!entries().has(health.name)) registerCluster(health.name);
  const entry = entries().get(health.name)!;
  entry.health = health;
  entry.view = undefined;
  const digest = healthDigest(health);
  if (entry.digest === digest) return undefined;
  entry.digest = digest;
  const base = entry.pushed ? entry.version : null;
  entry.version += 1;
  // The whole health is diffed only for a page that listens to it (the view's push is what /health takes).
  const push = listensToWholeHealth() ? diffHealth(entry.pushed, health, entry.version, base) : undefined;
  const view = viewOf(entry);
  const viewPush = diffHealth(entry.pushedView, view, entry.version, entry.pushedView ? base : null);
  entry.pushed = health;
  entry.pushedView = view;
  if (push) emitHealth(push);
  emitHealthView(viewPush);
  return push ?? viewPush;
}

/** Each matrix's rows classified once per matrix (a health is replaced, never changed, so its matrices are too). */
const classified = new WeakMap<KmsMatrix, HealthRow[]>();
export function rowsOf(matrix: KmsMatrix): HealthRow[] {
  let rows = classified.get(matrix);
  if (!rows) classified.set(matrix, (rows = classifyRows(matrix)));
  return rows;
}

function viewOf(entry: Entry): HealthInView {
  return (entry.view ??= viewOfHealth(entry.health!, rowsOf));
}

/** The view of the latest health the page shows first, with the version of the last push. */
export function getVersionedView(name: string): (HealthInView & { version: number }) | undefined {
  const entry = entries().get(name);
  return entry?.health ? { ...viewOf(entry), version: entry.version } : undefined;
}

export function getClusterHealth(name: string): ClusterHealth | undefined {
  return entries().get(name)?.health;
}

/** The latest health with the version of the last push, for a page to apply the following pushes to. */
export function getVersionedHealth(name: string): (ClusterHealth & { version: number }) | undefined {
  const entry = entries().get(name);
  return entry?.health ? { ...entry.health, version: entry.version } : undefined;
}

export function listClusterHealth(): ClusterHealth[] {
  return [...entries().values()].flatMap((e) => (e.health ? [e.health] : []));
}

/** Whether this process reads the cluster itself ("leader" or "alone") or serves another's results. */
export function getMonitorRole(name: string): MonitorRole | undefined {
  return entries().get(name)?.role;
}

/** Whether every monitored cluster's role is known: a replica is not ready while it could still be either. */
export function rolesKnown(): { known: boolean; starting: string[] } {
  const starting = [...entries()].filter(([, e]) => e.role === "starting").map(([name]) => name);
  return { known: starting.length === 0, starting };
}

/** The digest of the latest health published for a cluster (what a viewer would notice of it). */
export function getHealthDigest(name: string): string | undefined {
  return entries().get(name)?.digest;
}

export function listMonitoredNames(): string[] {
  return [...entries().keys()];
}
