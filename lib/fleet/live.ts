import "server-only";
import { onHealthView, onIncidents } from "@/lib/live/bus";
import { getClusterHealth, listMonitoredNames } from "@/lib/live/registry";
import { processSlot } from "@/lib/process-slot";
import { rowKey, sortFleet, type FleetRow } from "./fleet-row";
import { readFleet, staleAfterMs, type FleetRead } from "./read-fleet";

// The fleet view's rows and pushes: one publisher per process, running while a page listens or the rows were read
// in the last KEEP_WARM_MS. It reads a cluster's row again when its health changes (the summary view's push), every
// row when incidents change (two queries for all), and a row that turns stale or fresh again; it sends the rows that
// changed, never the healths behind them. GET /api/v1/fleet and /fleet read the rows it holds (readFleetRows):
// what every client asks for is read once per change, not once per request.

export interface FleetPush {
  /** Every row, worst first (the first push of a stream), or only the rows that changed since the last push. */
  full: boolean;
  rows: FleetRow[];
  /** Why the incident store could not be read, while it cannot. */
  storeDown?: string;
}

type Listener = (push: FleetPush) => void;

/** Changes closer together than this are read and sent as one push. */
const COALESCE_MS = 100;
/** How often the publisher looks for a cluster that turned stale (or fresh again) without a push. */
const STALE_CHECK_MS = 1_000;
/** With no page listening, the publisher keeps the rows this long after the last read: a dashboard that polls keeps them. */
const KEEP_WARM_MS = 60_000;

interface Publisher {
  /** Listeners that have had their full push: they get every change after it. */
  ready: Set<Listener>;
  waiting: Set<Listener>;
  rows: Map<string, FleetRow>;
  /** Every watched cluster has been read since the publisher started. */
  warm: boolean;
  storeDown?: string;
  /** Bumped at every start and stop: a read begun before then is dropped. */
  generation: number;
  pending?: Set<string> | "all";
  timer?: NodeJS.Timeout;
  /** Reads and sends run one after the other, so a listener's full push and the changes after it arrive in order. */
  chain: Promise<void>;
  /** A read waits on the chain to start: it takes whatever is pending then, so reads never pile up behind a slow store. */
  refreshQueued: boolean;
  /** The read running now is of every row. */
  readingAll: boolean;
  /** Every row worst first, as each full push and read hands them out (one object for all), until a row changes. */
  full?: FleetPush;
  /** Until when a read keeps the publisher running with no page listening (ms). */
  readUntil: number;
  /** Counts every change heard of (a health, an incident, a row turning stale): an answer written before the latest is old. */
  heard: number;
  stop?: () => void;
}

const slot = processSlot<Publisher>("fleet-publisher");

const publisher = () =>
  slot.getOrCreate(() => ({
    ready: new Set(),
    waiting: new Set(),
    rows: new Map(),
    warm: false,
    generation: 0,
    chain: Promise.resolve(),
    refreshQueued: false,
    readingAll: false,
    readUntil: 0,
    heard: 0,
  }));

const fullPush = (p: Publisher): FleetPush =>
  (p.full ??= { full: true, rows: sortFleet([...p.rows.values()]), ...(p.storeDown ? { storeDown: p.storeDown } : {}) });

/** Sends `listener` every row now, then the rows that change; returns how to stop. */
export function subscribeFleet(listener: Listener): () => void {
  const p = publisher();
  p.waiting.add(listener);
  if (!p.stop) start(p);
  enqueue(p, async () => {
    if (!p.waiting.has(listener)) return;
    if (!p.warm) await refresh(p, "all", p.generation);
    p.waiting.delete(listener);
    p.ready.add(listener);
    listener(fullPush(p));
  });
  return () => {
    p.waiting.delete(listener);
    p.ready.delete(listener);
    stopWhenIdle(p);
  };
}

/**
 * Every watched cluster's row, worst first, as the publisher holds them (starting it when it does not run): a change
 * announced before the call (a cluster's pushed view, an incident change, a turn to stale) is in them. The reading
 * time of each row is the registry's latest; a store that could not be read is tried again.
 */
export async function readFleetRows(): Promise<FleetRead & { basis: object }> {
  const p = publisher();
  p.readUntil = Date.now() + KEEP_WARM_MS;
  if (!p.stop) start(p);
  const watched = listMonitoredNames();
  // Every row is read when none has been yet, or when the store could not be read (once at a time, for all callers).
  if ((!p.warm || p.storeDown) && !p.readingAll) schedule(p, "all");
  else if (p.warm) {
    const unread = watched.filter((name) => !p.rows.has(name));
    const turned = flippedRows(p).map((row) => row.name);
    if (unread.length + turned.length > 0) schedule(p, [...unread, ...turned]);
  }
  await flush(p);
  const names = new Set(watched);
  const basis = fullPush(p);
  const rows = basis.rows
    .filter((row) => names.has(row.name))
    .map((row) => {
      const readAt = row.state === "stale" ? row.readAt : (getClusterHealth(row.name)?.checkedAt ?? row.readAt);
      return readAt === row.readAt ? row : { ...row, readAt };
    });
  // `basis`: the same object until a row changes, for a caller that writes what it answers once per change.
  return { rows, basis, ...(p.storeDown ? { storeDown: p.storeDown } : {}) };
}

/**
 * What an answer made from readFleetRows is checked against: the rows' basis (the same object until a row changes)
 * and the count of changes heard. An answer whose mark, taken before its read, still equals the current one is as
 * new as a read now would be, but for its read times.
 */
export function fleetMark(): { basis: object | undefined; heard: number } {
  const p = publisher();
  return { basis: p.full, heard: p.heard };
}

/** Rows whose staleness the registry's latest reading contradicts: they are read again. */
function flippedRows(p: Publisher): FleetRow[] {
  const now = Date.now();
  const bound = staleAfterMs();
  return [...p.rows.values()].filter((row) => {
    const health = getClusterHealth(row.name);
    return health !== undefined && now - Date.parse(health.checkedAt) > bound !== (row.state === "stale");
  });
}

/** Stops the publisher once no page listens and no read asked for the rows in the last KEEP_WARM_MS. */
function stopWhenIdle(p: Publisher): void {
  if (p.waiting.size === 0 && p.ready.size === 0 && Date.now() >= p.readUntil) p.stop?.();
}

function start(p: Publisher): void {
  p.generation += 1;
  const offHealth = onHealthView((push) => schedule(p, [push.cluster]));
  const offIncidents = onIncidents(() => schedule(p, "all"));
  const staleCheck = setInterval(() => {
    const flipped = flippedRows(p);
    if (flipped.length > 0)
      schedule(
        p,
        flipped.map((row) => row.name),
      );
    stopWhenIdle(p);
  }, STALE_CHECK_MS);
  staleCheck.unref();
  p.stop = () => {
    offHealth();
    offIncidents();
    clearInterval(staleCheck);
    clearTimeout(p.timer);
    Object.assign(p, {
      stop: undefined,
      timer: undefined,
      pending: undefined,
      warm: false,
      storeDown: undefined,
      full: undefined,
      generation: p.generation + 1,
    });
    p.rows.clear();
  };
}

/** Runs after the work queued before it; a failure is logged and does not stop the work after it. */
function enqueue(p: Publisher, work: () => Promise<void>): void {
  p.chain = p.chain.then(work).catch((error: unknown) => console.error(`[faultline] fleet view: ${(error as Error).message}`));
}

/** Queues one read of what is pending, unless one already waits to start (it will take these too). */
function queueRefresh(p: Publisher): void {
  if (p.refreshQueued || !p.pending) return;
  p.refreshQueued = true;
  enqueue(p, async () => {
    p.refreshQueued = false;
    const which = p.pending;
    p.pending = undefined;
    if (!which) return;
    p.readingAll = which === "all";
    try {
      await refresh(p, which, p.generation);
    } finally {
      p.readingAll = false;
    }
  });
}

/** Reads what is pending now rather than after the coalescing wait, and resolves once every read queued so far is done. */
function flush(p: Publisher): Promise<void> {
  clearTimeout(p.timer);
  p.timer = undefined;
  queueRefresh(p);
  return p.chain;
}

function schedule(p: Publisher, names: string[] | "all"): void {
  p.heard += 1;
  if (names === "all" || p.pending === "all") p.pending = "all";
  else p.pending = new Set([...(p.pending ?? []), ...names]);
  if (p.timer || p.refreshQueued) return;
  p.timer = setTimeout(() => {
    p.timer = undefined;
    queueRefresh(p);
  }, COALESCE_MS);
  p.timer.unref();
}

/** Reads the rows again and sends those that changed to the listeners that have had their full push. */
async function refresh(p: Publisher, which: Set<string> | "all", generation: number): Promise<void> {
  const watched = listMonitoredNames();
  const read = await readFleet({ names: which === "all" ? watched : watched.filter((n) => which.has(n)), previous: p.rows });
  if (generation !== p.generation) return;
  const changed = read.rows.filter((row) => {
    const before = p.rows.get(row.name);
    return !before || rowKey(before) !== rowKey(row);
  });
  for (const row of read.rows) p.rows.set(row.name, row);
  if (which === "all") p.warm = true;
  const storeChanged = read.storeDown !== p.storeDown;
  p.storeDown = read.storeDown;
  // A row read again but unchanged differs at most in its reading time, which reads take from the registry.
  if (changed.length > 0 || storeChanged) p.full = undefined;
  if (changed.length === 0 && !storeChanged) return;
  const push: FleetPush = { full: false, rows: changed, ...(read.storeDown ? { storeDown: read.storeDown } : {}) };
  for (const listener of p.ready) listener(push);
}
