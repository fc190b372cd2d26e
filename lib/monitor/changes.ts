import { createHash } from "node:crypto";
import { EventEmitter } from "node:events";
import type { ClusterHealth } from "@/lib/signals/cluster-health";

// Tells open pages that a cluster's health changed, so they refetch at once instead of at their
// next poll. One emitter per process on globalThis (route handlers and the monitor live in
// different bundles); it carries no data, only "cluster X changed".

const KEY = Symbol.for("faultline.health-changes");

interface Changes {
  emitter: EventEmitter;
  fingerprints: Map<string, string>;
}

function changes(): Changes {
  const store = globalThis as unknown as Record<symbol, Changes | undefined>;
  if (!store[KEY]) {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0); // one listener per open tab
    store[KEY] = { emitter, fingerprints: new Map() };
  }
  return store[KEY];
}

/** What a viewer would notice: statuses, reasons, signal states, sources up or down; not the clock. */
export function fingerprint(health: ClusterHealth): string {
  const visible = {
    summary: health.summary,
    cells: health.matrix?.cells.map((c) => [c.node, c.keyID, c.status, c.kekID, c.detail, c.stale, c.future, c.orphaned]),
    rows: health.matrix?.rows.map((r) => [r.node, r.state]),
    servers: health.serverMatrices?.map((m) => [m.server, m.matrix.cells.map((c) => [c.node, c.keyID, c.status, c.detail, c.stale])]),
    signals: health.signals.map((s) => [s.id, s.subject, s.state]),
    sources: health.sources.map((s) => [s.name, s.up]),
    disagreement: health.disagreement,
  };
  return createHash("sha1").update(JSON.stringify(visible)).digest("hex");
}

export function announce(health: ClusterHealth): void {
  const c = changes();
  const print = fingerprint(health);
  if (c.fingerprints.get(health.name) === print) return;
  c.fingerprints.set(health.name, print);
  c.emitter.emit("change", health.name);
}

export function onChange(listener: (cluster: string) => void): () => void {
  const { emitter } = changes();
  emitter.on("change", listener);
  return () => emitter.off("change", listener);
}

/** Tells open incident pages that incidents changed (ids may be empty: "something changed, refetch"). */
export function announceIncidents(ids: number[]): void {
  changes().emitter.emit("incidents", ids);
}

export function onIncidentsChange(listener: (ids: number[]) => void): () => void {
  const { emitter } = changes();
  emitter.on("incidents", listener);
  return () => emitter.off("incidents", listener);
}
