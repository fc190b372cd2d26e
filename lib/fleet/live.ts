import "server-only";
import { onHealthView, onIncidents } from "@/lib/live/bus";
import { getClusterHealth, listMonitoredNames } from "@/lib/live/registry";
import { processSlot } from "@/lib/process-slot";
import { rowKey, sortFleet, type FleetRow } from "./fleet-row";
import { readFleet, staleAfterMs } from "./read-fleet";

// The fleet view's pushes: one publisher per process, running while a page listens. It reads the rows again when a
// cluster's health changes (the summary view's push), when incidents change (every cluster: one query each), and
// when a cluster turns stale or fresh again; it sends the rows that changed, never the healths behind them.

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
  stop?: () => void;
}

const slot = processSlot<Publisher>("fleet-publisher");

const publisher = () =>
  slot.getOrCreate(() => ({ ready: new Set(), waiting: new Set(), rows: new Map(), warm: false, generation: 0, chain: Promise.resolve() }));

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
    listener({ full: true, rows: sortFleet([...p.rows.values()]), ...(p.storeDown ? { storeDown: p.storeDown } : {}) });
  });
  return () => {
    p.waiting.delete(listener);
    p.ready.delete(listener);
    if (p.waiting.size === 0 && p.ready.size === 0) p.stop?.();
  };
}

function start(p: Publisher): void {
  p.generation += 1;
  const offHealth = onHealthView((push) => schedule(p, [push.cluster]));
  const offIncidents = onIncidents(() => schedule(p, "all"));
  const staleCheck = setInterval(() => {
    const now = Date.now();
    const bound = staleAfterMs();
    const flipped = [...p.rows.values()].filter((row) => {
      const health = getClusterHealth(row.name);
      return health !== undefined && now - Date.parse(health.checkedAt) > bound !== (row.state === "stale");
    });
    if (flipped.length > 0)
      schedule(
        p,
        flipped.map((row) => row.name),
      );
  }, STALE_CHECK_MS);
  staleCheck.unref();
  p.stop = () => {
    offHealth();
    offIncidents();
    clearInterval(staleCheck);
    clearTimeout(p.timer);
    Object.assign(p, { stop: undefined, timer: undefined, pending: undefined, warm: false, storeDown: undefined, generation: p.generation + 1 });
    p.rows.clear();
  };
}

/** Runs after the work queued before it; a failure is logged and does not stop the work after it. */
function enqueue(p: Publisher, work: () => Promise<void>): void {
  p.chain = p.chain.then(work).catch((error: unknown) => console.error(`[faultline] fleet view: ${(error as Error).message}`));
}

function schedule(p: Publisher, names: string[] | "all"): void {
  if (names === "all" || p.pending === "all") p.pending = "all";
  else p.pending = new Set([...(p.pending ?? []), ...names]);
  if (p.timer) return;
  p.timer = setTimeout(() => {
    p.timer = undefined;
    const which = p.pending;
    p.pending = undefined;
    if (which) enqueue(p, () => refresh(p, which, p.generation));
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
  if (changed.length === 0 && !storeChanged) return;
  const push: FleetPush = { full: false, rows: changed, ...(read.storeDown ? { storeDown: read.storeDown } : {}) };
  for (const listener of p.ready) listener(push);
}
