import { EventEmitter } from "node:events";
import { processSlot } from "@/lib/process-slot";
import type { HealthPush } from "./health-push";

// The one event bus of the live pipeline: health pushes per cluster (lib/live/registry.ts publishes them) and
// incident changes (the incident writers announce them once committed). One emitter per process on globalThis:
// route handlers and the monitor live in different bundles.

export interface IncidentsPush {
  /** Counts every announcement of this process, so a page can tell it missed none. */
  version: number;
  /** Incidents whose rows changed (may be empty: "something changed"). */
  ids: number[];
}

interface Bus {
  emitter: EventEmitter;
  incidentsVersion: number;
}

const theBus = processSlot<Bus>("live-bus");

function bus(): Bus {
  return theBus.getOrCreate(() => {
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0); // one listener per open tab
    return { emitter, incidentsVersion: Date.now() };
  });
}

function on<T>(event: string, listener: (data: T) => void): () => void {
  const { emitter } = bus();
  emitter.on(event, listener);
  return () => emitter.off(event, listener);
}

/** Sends a cluster's health push to every listener (the registry calls it; nothing else should). */
export function emitHealth(push: HealthPush): void {
  bus().emitter.emit("health", push);
}

export const onHealth = (listener: (push: HealthPush) => void) => on("health", listener);

/** Sends a push of what changed in the view of a cluster's health the page shows (lib/signals/health-view.ts). */
export function emitHealthView(push: HealthPush): void {
  bus().emitter.emit("health-view", push);
}

export const onHealthView = (listener: (push: HealthPush) => void) => on("health-view", listener);

/** Whether any page listens to whole-health pushes: without one, the registry need not diff the whole health. */
export const listensToWholeHealth = (): boolean => bus().emitter.listenerCount("health") > 0;

/**
 * Tells open incident pages that incidents changed; call it once the write has committed. A change this process
 * made is also handed to the other replicas (lib/monitor/replica-link.ts); one they made arrives `fromReplica`.
 */
export function announceIncidents(ids: number[], opts: { fromReplica?: boolean } = {}): void {
  const b = bus();
  b.incidentsVersion += 1;
  b.emitter.emit("incidents", { version: b.incidentsVersion, ids } satisfies IncidentsPush);
  if (!opts.fromReplica) b.emitter.emit("incidents-here", ids);
}

export const onIncidents = (listener: (push: IncidentsPush) => void) => on("incidents", listener);

/** Incident changes this process made (not those relayed from another replica). */
export const onIncidentsHere = (listener: (ids: number[]) => void) => on("incidents-here", listener);
