import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import { processSlot } from "@/lib/process-slot";
import type { PrismaClient } from "@/lib/db/generated/client";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import { connect, type KubeAccess } from "@/lib/sources/kube/client";
import { judgeRound } from "@/lib/incidents/rounds/judge";
import { publishHealth, registerCluster, setMonitorRole } from "@/lib/live/registry";
import { commitRound, loadPersisted, newMemo, type CommittedRound, type PersistMemo } from "@/lib/store/persist";
import type { Refusal } from "@/lib/text/refusal";
import type { Sources } from "@/lib/sources/sources";
import { collect, type CollectTarget } from "@/lib/sources/probes/collect";
import { intake, newIntakeMemo, type IntakeMemo } from "@/lib/sources/intake";
import { readSources } from "@/lib/sources/readings";
import { createClusterLock } from "./leader";
import { startWatches, stopWatches, watchesSettled, type Watches } from "@/lib/sources/kube/watched";
import { ensureExporter, observeMonitorRound } from "@/lib/exporter/collectors";
import { readIncidentLogs, readLogsWhenOpened, type LogsRead } from "./incident-logs";

// Loop, lock, compose, commit: one loop per cluster inside each server process. The process holding the
// cluster's advisory lock (leader.ts) watches the cluster's objects and probes its endpoints every round,
// composes the health, publishes it (lib/live: the registry pages read, pushes to open pages), commits what
// changed to the store (lib/store), and hands each round's commit to the incident rules (lib/incidents).
// The others serve what it stored. A watched change is composed, published and committed at once.

export interface Monitored {
  target: CollectTarget;
  simulated: boolean;
  sources: Sources;
  health?: ClusterHealth;
  timer?: NodeJS.Timeout;
  memo: PersistMemo;
  /** A commit to the store in flight (a round waits for it; a watched change skips it, the next one writes both). */
  committing?: Promise<CommittedRound | undefined>;
  /** An incident round is being written (rounds never overlap; a skipped one is simply the next). */
  judging?: boolean;
  access?: KubeAccess;
  /** The leader's watches on the cluster's objects; none while following. */
  watches?: Watches;
  composeTimer?: NodeJS.Timeout;
  /** The text boundary's memory: what each source's cleaning changed (made on first use). */
  intake?: IntakeMemo;
  /** Signals the incident rules could not judge in the latest round, each alone (the others were). */
  judgeRefused?: Refusal[];
}

/** Who reads an incident's logs when it opens, as the timeline names it. */
const LOGS_ACTOR = "faultline";

/** How long a change waits for others to join it before the health is composed and pushed. */
const COMPOSE_DEBOUNCE_MS = 50;
/** How long the first round waits for the watches' first LIST. */
const FIRST_SYNC_MS = 5_000;

const running = processSlot<Map<string, Monitored>>("monitors");

function monitors(): Map<string, Monitored> {
  return running.getOrCreate(() => new Map());
}

/** Reads an incident's logs now with the monitor of its cluster (POST /api/v1/incidents/{id}/logs); 409 when none here watches it. */
export function requestIncidentLogs(db: PrismaClient, incidentId: number, actor: string): Promise<LogsRead> {
  return readIncidentLogs(db, incidentId, actor, (cluster) => monitors().get(cluster));
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

/** Health from the entry's sources as they are, published to pages (pushed when it changed). */
function publish(entry: Monitored, at: Date): ClusterHealth {
  const refused = [
    ...[...entry.memo.refused.values()].map((r) => ({ ...r, stage: "store" as const })),
    ...(entry.judgeRefused ?? []).map((r) => ({ ...r, stage: "judge" as const })),
  ];
  entry.health = composeClusterHealth({
    name: entry.target.cluster.name,
    simulated: entry.simulated,
    intervalSeconds: entry.target.cluster.intervalSeconds,
    readings: readSources(entry.sources),
    now: at,
    prometheusNote: entry.target.prometheusNote,
    cleaned: entry.intake?.notes,
    refused,
  });
  if (monitors().get(entry.target.cluster.name) === entry) publishHealth(entry.health);
  return entry.health;
}

function scheduleCompose(entry: Monitored): void {
  if (entry.composeTimer || !entry.watches) return;
  entry.composeTimer = setTimeout(() => {
    entry.composeTimer = undefined;
    if (!entry.watches) return;
    publish(entry, new Date());
    void commit(entry, false);
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
  const entry: Monitored = { target, simulated: opts.simulated, sources: {}, memo: newMemo() };
  ensureExporter(); // /metrics tells since when a signal is in its state from the first health on (docs/metrics.md)
  // The registry holds the role ("leader" reads the cluster, "follower" serves what another process stored).
  registerCluster(target.cluster.name, "alone");
  const url = loadEnv().DATABASE_URL;
  const lock = url
    ? createClusterLock(url, target.cluster.name, (error) =>
        console.error(`[faultline] monitor ${target.cluster.name}: lost the monitor lock (${error.message}); retrying`),
      )
    : undefined;
  map.set(target.cluster.name, entry);
  let running = false;
  const tick = async () => {
    if (running) return; // a slow cluster never stacks up overlapping rounds
    running = true;
    try {
      const leading = lock ? await lock.tryAcquire().catch(() => false) : true;
      const db = lock ? database() : undefined;
      setMonitorRole(target.cluster.name, !leading && db ? "follower" : lock ? "leader" : "alone");
      if (!leading && db) {
        stopReading(entry);
        await followOnce(entry, db);
      } else {
        const started = performance.now();
        await pollOnce(entry);
        observeMonitorRound(target.cluster.name, (performance.now() - started) / 1000);
        void commitAndJudge(entry);
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

/**
 * Commits the entry's latest health to the store without holding up the next poll; a commit that fails is
 * retried with the next. A round waits for a commit in flight and then writes its own; a watched change skips.
 */
async function commit(entry: Monitored, round: boolean): Promise<CommittedRound | undefined> {
  const db = database();
  if (!db || !entry.health) return undefined;
  if (entry.committing && !round) return undefined;
  const previous = entry.committing;
  const work = (async () => {
    await previous;
    const health = entry.health!;
    return commitRound(db, health, entry.sources, entry.memo, new Date()).catch((error: unknown) => {
      console.error(`[faultline] monitor ${entry.target.cluster.name}: could not store health: ${lastLine((error as Error).message)}`);
      return undefined;
    });
  })();
  entry.committing = work;
  const committed = await work;
  if (entry.committing === work) entry.committing = undefined;
  return committed;
}

/** Prisma's messages start with a blank line and the call site; the reason is the last line. */
function lastLine(message: string): string {
  return (
    message
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .pop()
      ?.slice(0, 300) ?? "unknown error"
  );
}

/**
 * One round: commit, then the incident rules judge what was committed (leader only: followers would count the
 * same observation twice). Runs per poll, not per watch event, so "N consecutive observations" means rounds;
 * a round whose judging would overlap the previous one's is simply not judged (the next is).
 */
async function commitAndJudge(entry: Monitored): Promise<void> {
  const db = database();
  if (!db || !entry.health) return;
  if (entry.judging) return void commit(entry, false);
  entry.judging = true;
  const name = entry.target.cluster.name;
  try {
    const committed = await commit(entry, true);
    // A round the store could not write is judged all the same, as composed (the rules' memory is their own transaction).
    const round = committed ?? { cluster: name, at: new Date(), signals: entry.health.signals, transitions: [] };
    // The logs of an incident that opens are read off the round: a slow or refused read never holds it up.
    entry.judgeRefused = await judgeRound(db, round, loadEnv().FAULTLINE_INCIDENT_RULES, (ids) => readLogsWhenOpened(db, entry, ids, LOGS_ACTOR));
  } catch (error) {
    console.error(`[faultline] monitor ${name}: could not apply the incident rules: ${lastLine((error as Error).message)}`);
  } finally {
    entry.judging = false;
  }
}
