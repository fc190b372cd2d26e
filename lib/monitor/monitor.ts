import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import type { PrismaClient } from "@/lib/db/generated/client";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import { connect, type KubeAccess } from "@/lib/sources/kube/client";
import { applyRound, sweepIncidents } from "@/lib/incidents/apply-round";
import type { Refusal } from "@/lib/text/refusal";
import { announce, announceIncidents } from "./changes";
import type { Sources } from "@/lib/sources/observation";
import { collect, type CollectTarget } from "@/lib/sources/probes/collect";
import { intake, newIntakeMemo, type IntakeMemo } from "@/lib/sources/intake";
import { createClusterLock } from "./leader";
import { loadPersisted, newMemo, persistRound, type PersistMemo } from "./persist";
import { startWatches, stopWatches, watchesSettled, type Watches } from "@/lib/sources/kube/watched";

// One loop per cluster inside each server process. The process holding the cluster's advisory lock
// watches the cluster's objects, probes its HTTP endpoints every round, and stores changes in Postgres;
// the others serve what it stored. A watched change is composed and pushed at once, without waiting
// for the next round. Pages and APIs read the latest health from memory, so any number of open tabs
// costs the cluster nothing.

export interface Monitored {
  target: CollectTarget;
  simulated: boolean;
  sources: Sources;
  health?: ClusterHealth;
  timer?: NodeJS.Timeout;
  memo: PersistMemo;
  persisting?: boolean;
  /** An incident round is being written (rounds never overlap; a skipped one is simply the next). */
  judging?: boolean;
  /** "leader" reads the cluster; "follower" serves what the leader stored (another process holds the lock). */
  role: "leader" | "follower" | "alone";
  access?: KubeAccess;
  /** The leader's watches on the cluster's objects; none while following. */
  watches?: Watches;
  composeTimer?: NodeJS.Timeout;
  /** The text boundary's memory: what each source's cleaning changed (made on first use). */
  intake?: IntakeMemo;
  /** Signals the incident rules could not judge in the latest round, each alone (the others were). */
  judgeRefused?: Refusal[];
}

/** How long a change waits for others to join it before the health is composed and pushed. */
const COMPOSE_DEBOUNCE_MS = 50;
/** How long the first round waits for the watches' first LIST. */
const FIRST_SYNC_MS = 5_000;

const KEY = Symbol.for("faultline.monitors");
type Store = Record<symbol, Map<string, Monitored> | undefined>;

function monitors(): Map<string, Monitored> {
  const store = globalThis as unknown as Store;
  store[KEY] ??= new Map();
  return store[KEY];
}

export async function pollOnce(entry: Monitored, now: () => Date = () => new Date()): Promise<ClusterHealth> {
  // One connection per monitor; built again after a round the API server did not answer (a rotated
  // kubeconfig). The watches ask for it each time they list or reconnect.
  if (entry.sources.readyz?.up === false) entry.access = undefined;
  const access = () => (entry.access ??= connect(entry.target.cluster));
  if (!entry.watches) {
    const watchTuning = { stallMs: entry.target.cluster.watchStallSeconds * 1000 };
    entry.watches = startWatches(access, (update, changed) => mergeWatched(entry, update, changed), watchTuning, entry.sources);
    const until = Date.now() + FIRST_SYNC_MS;
    while (!watchesSettled(entry.watches) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  }
  // A watch that hears from the API server again is evidence enough: its probes need not wait out their backoff.
  if (entry.watches.get("kubeapiserver")?.state.up) {
    for (const name of ["readyz", "kmsProviders"] as const) {
      const probe = entry.sources[name];
      if (probe && !probe.up && probe.retryAt) entry.sources = { ...entry.sources, [name]: { ...probe, retryAt: undefined } };
    }
  }
  const readyzBefore = entry.sources.readyz;
  const probes = await collect(entry.target, entry.sources, now, access());
  entry.sources = { ...entry.sources, ...cleanIntake(entry, probes) };
  // And the other way: the API server just answered /readyz, so watches down for a network reason retry now.
  if (probes.readyz && probes.readyz !== readyzBefore && probes.readyz.up && !probes.readyz.throttled) for (const w of entry.watches.values()) w.nudge();
  return publish(entry, now());
}

/** A watch pushed its source's new state: kept at once, and composed and pushed soon when it changed. */
function mergeWatched(entry: Monitored, update: Partial<Sources>, changed: boolean): void {
  if (!entry.watches) return;
  entry.sources = { ...entry.sources, ...cleanIntake(entry, update) };
  if (changed) scheduleCompose(entry);
}

/** Everything read from the cluster passes the text boundary here, once. */
function cleanIntake<T extends Partial<Sources>>(entry: Monitored, sources: T): T {
  return intake(sources, (entry.intake ??= newIntakeMemo()), (line) => console.warn(`[faultline] monitor ${entry.target.cluster.name}: ${line}`));
}

/** Health from the entry's sources as they are, announced to open pages when it changed. */
function publish(entry: Monitored, at: Date): ClusterHealth {
  const refused = [...[...entry.memo.refused.values()].map((r) => ({ ...r, stage: "store" as const })), ...(entry.judgeRefused ?? []).map((r) => ({ ...r, stage: "judge" as const }))];
  entry.health = composeClusterHealth({ name: entry.target.cluster.name, simulated: entry.simulated, intervalSeconds: entry.target.cluster.intervalSeconds, sources: entry.sources, now: at, prometheusNote: entry.target.prometheusNote, cleaned: entry.intake?.notes, refused });
  announce(entry.health);
  return entry.health;
}

function scheduleCompose(entry: Monitored): void {
  if (entry.composeTimer || !entry.watches) return;
  entry.composeTimer = setTimeout(() => {
    entry.composeTimer = undefined;
    if (!entry.watches) return;
    publish(entry, new Date());
    persistInBackground(entry);
  }, COMPOSE_DEBOUNCE_MS);
  entry.composeTimer.unref();
}

/** Stops reading the cluster (another process leads, or the monitor is replaced). */
function stopReading(entry: Monitored): void {
  stopWatches(entry.watches);
  entry.watches = undefined;
  if (entry.composeTimer) clearTimeout(entry.composeTimer);
  entry.composeTimer = undefined;
}

export function startMonitor(target: CollectTarget, opts: { simulated: boolean; pollSeconds: number }): Monitored {
  const map = monitors();
  const previous = map.get(target.cluster.name);
  if (previous?.timer) clearInterval(previous.timer);
  if (previous) stopReading(previous);
  const entry: Monitored = { target, simulated: opts.simulated, sources: {}, memo: newMemo(), role: "alone" };
  const url = loadEnv().DATABASE_URL;
  const lock = url
    ? createClusterLock(url, target.cluster.name, (error) => console.error(`[faultline] monitor ${target.cluster.name}: lost the monitor lock (${error.message}); retrying`))
    : undefined;
  map.set(target.cluster.name, entry);
  let running = false;
  const tick = async () => {
    if (running) return; // a slow cluster never stacks up overlapping rounds
    running = true;
    try {
      const leading = lock ? await lock.tryAcquire().catch(() => false) : true;
      const db = lock ? database() : undefined;
      if (!leading && db) {
        entry.role = "follower";
        stopReading(entry);
        await followOnce(entry, db);
      } else {
        entry.role = lock ? "leader" : "alone";
        await pollOnce(entry);
        persistInBackground(entry);
        judgeInBackground(entry);
      }
    } catch (error) {
      console.error(`[faultline] monitor ${target.cluster.name}: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  // What was known before a restart comes back first, so a cluster that is down still shows its last state.
  const restored = restore(entry).catch(() => undefined);
  void restored.then(tick);
  entry.timer = setInterval(tick, opts.pollSeconds * 1000);
  entry.timer.unref();
  return entry;
}

function database(): PrismaClient | undefined {
  try {
    return getDb();
  } catch {
    return undefined; // no database yet: live health still works, only without history
  }
}

/** Another process holds the cluster: compose health from what it stored, without touching the cluster. */
export async function followOnce(entry: Monitored, db: PrismaClient): Promise<void> {
  entry.sources = (await loadPersisted(db, entry.target.cluster.name)).sources;
  publish(entry, new Date());
}

async function restore(entry: Monitored): Promise<void> {
  const db = database();
  if (!db) return;
  const { sources, memo } = await loadPersisted(db, entry.target.cluster.name);
  entry.sources = { ...sources, ...entry.sources };
  entry.memo = memo;
}

/** Writes changes without holding up the next poll; a round that fails is retried with the next. */
function persistInBackground(entry: Monitored): void {
  const db = database();
  if (!db || !entry.health || entry.persisting) return;
  entry.persisting = true;
  persistRound(db, entry.health, entry.sources, entry.memo, new Date())
    .catch((error: unknown) => console.error(`[faultline] monitor ${entry.target.cluster.name}: could not store health: ${lastLine((error as Error).message)}`))
    .finally(() => {
      entry.persisting = false;
    });
}

/** Prisma's messages start with a blank line and the call site; the reason is the last line. */
function lastLine(message: string): string {
  return message.split("\n").map((l) => l.trim()).filter(Boolean).pop()?.slice(0, 300) ?? "unknown error";
}

/**
 * One observation round of the incident rules for this cluster (leader only: followers would count the
 * same observation twice). Runs per poll, not per watch event, so "N consecutive observations" means rounds.
 */
function judgeInBackground(entry: Monitored): void {
  const db = database();
  if (!db || !entry.health || entry.judging) return;
  entry.judging = true;
  const health = entry.health;
  const rules = loadEnv().FAULTLINE_INCIDENT_RULES;
  applyRound(db, health.name, health.signals, new Date(), rules)
    .then(async (outcome) => {
      entry.judgeRefused = outcome.refused;
      const touched = [...outcome.opened, ...outcome.joined, ...outcome.reopened, ...outcome.resolved];
      // Incidents held only by alerts for clusters no monitor reads resolve here too, about once a minute.
      if (Date.now() - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = Date.now();
        touched.push(...(await sweepIncidents(db, new Date(), rules)));
      }
      if (touched.length > 0 || outcome.transitions > 0) announceIncidents(touched);
    })
    .catch((error: unknown) => console.error(`[faultline] monitor ${health.name}: could not apply the incident rules: ${lastLine((error as Error).message)}`))
    .finally(() => {
      entry.judging = false;
    });
}

const SWEEP_INTERVAL_MS = 60_000;
let lastSweep = 0;

export function listClusterHealth(): ClusterHealth[] {
  return [...monitors().values()].flatMap((m) => (m.health ? [m.health] : []));
}

export function getClusterHealth(name: string): ClusterHealth | undefined {
  return monitors().get(name)?.health;
}

/** Whether this process reads the cluster itself ("leader" or "alone") or serves another's results. */
export function getMonitorRole(name: string): Monitored["role"] | undefined {
  return monitors().get(name)?.role;
}

export function listMonitoredNames(): string[] {
  return [...monitors().keys()];
}
