import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import { onShutdown, processSlot } from "@/lib/process-slot";
import type { PrismaClient } from "@/lib/db/generated/client";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import { connect, type KubeAccess } from "@/lib/sources/kube/client";
import { judgeRound } from "@/lib/incidents/rounds/judge";
import { getHealthDigest, getMonitorRole, publishHealth, registerCluster, setMonitorRole } from "@/lib/live/registry";
import { announceIncidents } from "@/lib/live/bus";
import { isStaleTerm, type Fence } from "@/lib/store/fence";
import { commitRound, loadPersisted, newMemo, type CommittedRound, type PersistMemo } from "@/lib/store/persist";
import { keepUnchanged } from "@/lib/keep-unchanged";
import type { Refusal } from "@/lib/text/refusal";
import type { Sources } from "@/lib/sources/sources";
import { collect, type CollectTarget } from "@/lib/sources/probes/collect";
import { intake, newIntakeMemo, type IntakeMemo } from "@/lib/sources/intake";
import { readSources } from "@/lib/sources/readings";
import { createClusterLease, HOLDER, RENEW_MS, SILENT_AFTER_MS, type ClusterLease, type LeaseView } from "./lease";
import { ensureReplicaLink, forgetShared, readLeaderHealth, shareHealth, startReplicaLink, stopReplicaLink } from "./replica-link";
import { startWatches, stopWatches, watchesSettled, type Watches } from "@/lib/sources/kube/watched";
import { ensureExporter, observeLeadership, observeMonitorRound } from "@/lib/exporter/collectors";
import { readIncidentLogs, readLogsWhenOpened, type LogsRead } from "./incident-logs";

// Loop, lease, compose, commit: one loop per cluster inside each server process. The process holding the
// cluster's lease (lease.ts) watches the cluster's objects and probes its endpoints every round, composes the
// health, publishes it (lib/live: the registry pages read, pushes to open pages) and shares it with the other
// replicas (replica-link.ts), commits what changed to the store (lib/store), and hands each round's commit to the
// incident rules (lib/incidents), every write fenced by its lease term. The others serve the health it shared,
// as read by it. A watched change is composed, published and committed at once. docs/replicas.md.

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
  /** The cluster's lease (none without a database: the process reads the cluster alone). */
  lease?: ClusterLease;
  leaseTimer?: NodeJS.Timeout;
  /** What the latest lease check said. */
  leaseView?: LeaseView;
  checkingLease?: boolean;
  /** This process reads the cluster under its lease (set once the takeover loaded the stored state). */
  leading?: boolean;
  /** Runs a round now (a takeover does not wait for the next interval). */
  tick?: () => Promise<void>;
  /** Following: the leader's latest stored health and its digest; the "leader silent since" shown with it. */
  leaderHealth?: ClusterHealth;
  leaderDigest?: string;
  shownSilentSince?: string;
  following?: boolean;
  followAgain?: boolean;
  /** Why the health could not be shared at the last try, logged once per reason. */
  shareError?: string;
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

/** Health from the entry's sources as they are, published to pages (pushed when it changed) and, leading, to the followers. */
function publish(entry: Monitored, at: Date): ClusterHealth {
  // What did not change since the last round is the last round's: kept, not copied (lib/keep-unchanged.ts).
  entry.health = keepUnchanged(entry.health, compose(entry, at));
  if (monitors().get(entry.target.cluster.name) !== entry) return entry.health;
  publishHealth(entry.health);
  if (entry.leading) share(entry, entry.health);
  return entry.health;
}

/** The leader's health for the followers; a write refused for a stale term means another process leads now. */
function share(entry: Monitored, health: ClusterHealth): void {
  const name = entry.target.cluster.name;
  const db = database();
  const fence = entry.lease?.fence();
  const digest = getHealthDigest(name);
  if (!db || !fence || !digest) return;
  shareHealth(db, HOLDER, fence, health, digest).then(
    () => (entry.shareError = undefined),
    (error: unknown) => {
      if (isStaleTerm(error)) return stepDown(entry, "a newer term stores the health");
      const reason = lastLine((error as Error).message);
      if (entry.shareError !== reason) console.error(`[faultline] monitor ${name}: could not share the health with the other replicas: ${reason}`);
      entry.shareError = reason;
    },
  );
}

function compose(entry: Monitored, at: Date): ClusterHealth {
  const refused = [
    ...[...entry.memo.refused.values()].map((r) => ({ ...r, stage: "store" as const })),
    ...(entry.judgeRefused ?? []).map((r) => ({ ...r, stage: "judge" as const })),
  ];
  return composeClusterHealth({
    name: entry.target.cluster.name,
    simulated: entry.simulated,
    intervalSeconds: entry.target.cluster.intervalSeconds,
    readings: readSources(entry.sources),
    now: at,
    prometheusNote: entry.target.prometheusNote,
    cleaned: entry.intake?.notes,
    refused,
  });
}

function scheduleCompose(entry: Monitored): void {
  if (entry.composeTimer || !entry.watches) return;
  entry.composeTimer = setTimeout(() => {
    entry.composeTimer = undefined;
    if (!entry.watches) return;
    publish(entry, new Date());
    const fence = entry.lease?.fence();
    if (!entry.lease || fence) void commit(entry, false, fence);
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
  const name = target.cluster.name;
  const previous = map.get(name);
  if (previous) stopMonitorEntry(previous);
  const entry: Monitored = { target, simulated: opts.simulated, sources: {}, memo: newMemo() };
  ensureExporter(); // /metrics tells since when a signal is in its state from the first health on (docs/metrics.md)
  // The registry holds the role: "starting" until the lease says whether this process reads the cluster
  // ("leader") or serves what the leader stored ("follower"); "alone" without a database.
  registerCluster(name, "starting");
  const url = loadEnv().DATABASE_URL;
  entry.lease = url ? createClusterLease(url, name) : undefined;
  if (url) linkReplicas(url);
  onShutdown(stopMonitors);
  map.set(name, entry);
  let running = false;
  const tick = async () => {
    if (running) return; // a slow cluster never stacks up overlapping rounds
    running = true;
    try {
      const db = database();
      if (!entry.lease || !db) {
        setMonitorRole(name, "alone");
        await leadRound(entry, undefined);
      } else {
        const fence = entry.leading ? entry.lease.fence() : undefined;
        if (fence) await leadRound(entry, fence);
        else if (getMonitorRole(name) !== "starting") {
          if (entry.leading) stepDown(entry, "its lease could not be renewed in time");
          await followOnce(entry, db);
        }
      }
    } catch (error) {
      console.error(`[faultline] monitor ${name}: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  entry.tick = tick;
  // What was known before a restart comes back first, so a cluster that is down still shows its last state.
  const restored = restore(entry).catch(() => undefined);
  void restored.then(async () => {
    if (entry.lease) await checkLease(entry);
    await tick();
  });
  const k = monitorsStarted.count++;
  every(entry, "timer", opts.pollSeconds * 1000, k, tick);
  if (entry.lease) every(entry, "leaseTimer", RENEW_MS, k, () => void checkLease(entry));
  return entry;
}

/** Monitors started by this process: the k-th one's timers fire at its own point of each period. */
const monitorsStarted = processSlot<{ count: number }>("monitors-started").getOrCreate(() => ({ count: 0 }));

/**
 * Runs `work` every `periodMs`, first after a phase of its own: the golden ratio's multiples spread any number of
 * clusters evenly over the period. Started together, 100 clusters' rounds (500 probes) and lease renewals all came
 * in the same tick, and a renewal queued behind 99 others missed its lease (docs/replicas.md).
 */
function every(entry: Monitored, field: "timer" | "leaseTimer", periodMs: number, k: number, work: () => unknown): void {
  const phase = Math.floor(((k * 0.6180339887) % 1) * periodMs);
  entry[field] = setTimeout(() => {
    entry[field] = setInterval(work, periodMs);
    entry[field].unref();
  }, phase);
  entry[field].unref();
}

/** One round of a process that reads the cluster itself: probe, compose, publish, commit and judge under `fence`. */
async function leadRound(entry: Monitored, fence: Fence | undefined): Promise<void> {
  const started = performance.now();
  await pollOnce(entry);
  observeMonitorRound(entry.target.cluster.name, (performance.now() - started) / 1000);
  void commitAndJudge(entry, fence);
}

/**
 * Renews the lease or tries to take it (every RENEW_MS, beside the rounds, so a slow round never lets it lapse).
 * A takeover starts from what the old leader stored; losing it stops reading at once.
 */
async function checkLease(entry: Monitored): Promise<void> {
  const lease = entry.lease;
  if (!lease || entry.checkingLease || monitors().get(lease.cluster) !== entry) return;
  entry.checkingLease = true;
  const name = lease.cluster;
  try {
    const view = await lease.check();
    entry.leaseView = view;
    observeLeadership(name, view.leading, view.term);
    if (view.leading && !entry.leading) {
      await takeOver(entry, view.term!);
      void entry.tick?.();
    } else if (!view.leading) {
      if (entry.leading) stepDown(entry, `${shortHolder(view.holder)} holds the lease (term ${view.term})`);
      setMonitorRole(name, "follower");
      // The page says "leader silent since" as soon as the leader misses renewals, before its lease runs out.
      const silentSince = silentSinceOf(view);
      if (silentSince !== entry.shownSilentSince) void followNow(entry);
    }
  } catch (error) {
    if (entry.leading && !lease.fence()) stepDown(entry, `its lease could not be renewed: ${lastLine((error as Error).message)}`);
    // A replica that cannot reach the database cannot know who leads: it says what it last knew, as a follower.
    if (getMonitorRole(name) === "starting") setMonitorRole(name, "follower");
  } finally {
    entry.checkingLease = false;
  }
}

/** This process now leads: from the stored signal states and snapshots, so the takeover neither repeats nor loses a transition. */
async function takeOver(entry: Monitored, term: number): Promise<void> {
  const name = entry.target.cluster.name;
  const db = database();
  // Until the stored state is loaded this process must not act: a round would compare against what it knew before.
  if (db) {
    const { sources, memo } = await loadPersisted(db, name);
    entry.sources = { ...sources };
    entry.memo = memo;
  }
  entry.intake = undefined;
  entry.leaderHealth = undefined;
  entry.leaderDigest = undefined;
  entry.shownSilentSince = undefined;
  forgetShared(name);
  entry.leading = true;
  setMonitorRole(name, "leader");
  console.log(`[faultline] monitor ${name}: leading (lease term ${term}, holder ${entry.lease?.holder})`);
}

/** This process no longer leads: stop reading the cluster at once; the next round follows the new leader. */
function stepDown(entry: Monitored, why: string): void {
  const name = entry.target.cluster.name;
  if (entry.leading) console.warn(`[faultline] monitor ${name}: no longer leading: ${why}`);
  entry.leading = false;
  entry.lease?.lost();
  stopReading(entry);
  forgetShared(name);
  setMonitorRole(name, "follower");
  observeLeadership(name, false, entry.leaseView?.term);
}

function stopMonitorEntry(entry: Monitored): void {
  // clearInterval clears the phase's timeout too.
  if (entry.timer) clearInterval(entry.timer);
  if (entry.leaseTimer) clearInterval(entry.leaseTimer);
  stopReading(entry);
}

/** Hands every lease back (shutdown), so the other replicas take over at once instead of after the lease runs out. */
export async function stopMonitors(): Promise<void> {
  const all = [...monitors().values()];
  for (const entry of all) stopMonitorEntry(entry);
  await Promise.all(all.map((e) => e.lease?.release()));
  await stopReplicaLink();
}

const shortHolder = (holder: string | undefined) => holder ?? "another replica";

function silentSinceOf(view: LeaseView | undefined): string | undefined {
  return view && !view.leading && view.renewedAt && (view.silentForMs ?? 0) >= SILENT_AFTER_MS ? view.renewedAt.toISOString() : undefined;
}

/** The process's link to the other replicas, started with its first monitor. */
function linkReplicas(url: string): void {
  const db = database();
  if (!db) return;
  ensureReplicaLink(() =>
    startReplicaLink(url, HOLDER, db, {
      health: (cluster) => {
        const entry = monitors().get(cluster);
        if (entry && !entry.leading) void followNow(entry);
      },
      incidents: (ids) => announceIncidents(ids, { fromReplica: true }),
      caughtUp: () => {
        for (const entry of monitors().values()) if (!entry.leading) void followNow(entry);
        announceIncidents([], { fromReplica: true });
      },
    }),
  );
}

/** Follows the leader now (a notification, a silent leader), one read at a time per cluster. */
async function followNow(entry: Monitored): Promise<void> {
  const db = database();
  if (!db || entry.leading || getMonitorRole(entry.target.cluster.name) === "starting") return;
  if (entry.following) {
    entry.followAgain = true;
    return;
  }
  entry.following = true;
  try {
    do {
      entry.followAgain = false;
      await followOnce(entry, db);
    } while (entry.followAgain && !entry.leading);
  } catch (error) {
    console.error(`[faultline] monitor ${entry.target.cluster.name}: could not read the leader's health: ${lastLine((error as Error).message)}`);
  } finally {
    entry.following = false;
  }
}

function database(): PrismaClient | undefined {
  try {
    return getDb();
  } catch {
    return undefined; // no database yet: live health still works, only without history
  }
}

/**
 * Another process leads the cluster: serve the health it stored (live_health), with its read time and whether it
 * has gone silent, without touching the cluster. Before any leader stored one (an older version leads during an
 * upgrade), compose from the source snapshots it stored, as read at their newest success.
 */
export async function followOnce(entry: Monitored, db: PrismaClient): Promise<void> {
  const name = entry.target.cluster.name;
  const stored = await readLeaderHealth(db, name, entry.leaderDigest);
  if (entry.leading) return; // took over meanwhile: its own rounds publish now
  const silentSince = silentSinceOf(entry.leaseView);
  entry.shownSilentSince = silentSince;
  const replica = { role: "follower" as const, ...(silentSince ? { leaderSilentSince: silentSince } : {}) };
  if (stored?.health) {
    entry.leaderHealth = stored.health;
    entry.leaderDigest = stored.digest;
  }
  if (stored && entry.leaderHealth) {
    entry.health = { ...entry.leaderHealth, checkedAt: stored.readAt.toISOString(), replica };
  } else {
    entry.sources = (await loadPersisted(db, name)).sources;
    const readAt = Math.max(0, ...Object.values(entry.sources).map((s) => Date.parse(s?.lastSuccess ?? "") || 0));
    entry.health = { ...compose(entry, new Date(readAt)), replica };
  }
  if (monitors().get(name) === entry) publishHealth(entry.health);
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
async function commit(entry: Monitored, round: boolean, fence: Fence | undefined): Promise<CommittedRound | undefined> {
  const db = database();
  if (!db || !entry.health) return undefined;
  if (entry.committing && !round) return undefined;
  const previous = entry.committing;
  const work = (async () => {
    await previous;
    const health = entry.health!;
    if (entry.lease && !fence) return undefined; // lost the lease meanwhile: the new leader writes from what is stored
    return commitRound(db, health, entry.sources, entry.memo, new Date(), fence).catch((error: unknown) => {
      if (isStaleTerm(error)) {
        stepDown(entry, "a newer term wrote the store");
        return undefined;
      }
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
async function commitAndJudge(entry: Monitored, fence: Fence | undefined): Promise<void> {
  const db = database();
  if (!db || !entry.health) return;
  if (entry.judging) return void commit(entry, false, fence);
  entry.judging = true;
  const name = entry.target.cluster.name;
  try {
    const committed = await commit(entry, true, fence);
    if (entry.lease && !entry.leading) return; // the store refused this term: nothing of the round is judged
    // A round the store could not write is judged all the same, as composed (the rules' memory is their own transaction).
    const round = committed ?? { cluster: name, at: new Date(), signals: entry.health.signals, transitions: [], fence };
    // The logs of an incident that opens are read off the round: a slow or refused read never holds it up.
    entry.judgeRefused = await judgeRound(db, round, loadEnv().FAULTLINE_INCIDENT_RULES, (ids) => readLogsWhenOpened(db, entry, ids, LOGS_ACTOR));
  } catch (error) {
    if (isStaleTerm(error)) return stepDown(entry, "a newer term judges the cluster");
    console.error(`[faultline] monitor ${name}: could not apply the incident rules: ${lastLine((error as Error).message)}`);
  } finally {
    entry.judging = false;
  }
}
