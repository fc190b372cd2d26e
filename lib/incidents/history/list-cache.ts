import { onIncidents } from "@/lib/live/bus";
import { processSlot } from "@/lib/process-slot";
import type { Db } from "../tx";
import { listIncidentHistory, type IncidentHistory } from "./history";
import type { IncidentFilter } from "./queries";

// The incident list as a team's dashboards poll it: the same page asked for by many at once is read from PostgreSQL
// once. An answer is kept until incidents change (every writer announces its committed change on the bus, the
// other replicas' changes included: lib/monitor/replica-link.ts) and never longer than LIST_TTL_MS, so a write
// that announced nothing is seen within it. A read begun before an announcement serves no request after it.

/** The longest an answer is kept without an announcement; past it, it is read again while it still answers. */
export const LIST_TTL_MS = 1_000;
/** Distinct lists kept (filters, searches, pages); the oldest goes first. */
const MAX_LISTS = 64;

interface Kept {
  at: number;
  answer: Promise<IncidentHistory>;
  /** The answer once it arrived. */
  value?: IncidentHistory;
  /** While the list is read again after LIST_TTL_MS: the answer that still serves. */
  previous?: IncidentHistory;
}

interface ListCache {
  /** Per database client (tests hold several, the server one); emptied at every announcement. */
  lists: WeakMap<Db, Map<string, Kept>>;
}

// One per process: the route handlers and the pages live in bundles of their own.
const slot = processSlot<ListCache>("incident-list-cache");

function cache(): ListCache {
  return slot.getOrCreate(() => {
    const held: ListCache = { lists: new WeakMap() };
    // Reads in flight stay with the lists they began in, and no request after this one is handed them.
    onIncidents(() => (held.lists = new WeakMap()));
    return held;
  });
}

/**
 * listIncidentHistory, shared by every request for the same list since incidents last changed. An announced change
 * empties the lists: the next request waits for a new read. A list only LIST_TTL_MS old (a write nobody announced)
 * is read again while the old one keeps answering, so 200 polling clients do not all wait on that read each second.
 */
export function listIncidentHistoryShared(db: Db, filter: IncidentFilter, now = Date.now()): Promise<IncidentHistory> {
  const c = cache();
  let lists = c.lists.get(db);
  if (!lists) c.lists.set(db, (lists = new Map()));
  const key = JSON.stringify(filter);
  const kept = lists.get(key);
  if (kept && now - kept.at < LIST_TTL_MS) return kept.value === undefined && kept.previous ? Promise.resolve(kept.previous) : kept.answer;
  const previous = kept?.value ?? kept?.previous;
  const entry: Kept = { at: now, answer: listIncidentHistory(db, filter), previous };
  lists.delete(key);
  lists.set(key, entry);
  if (lists.size > MAX_LISTS) lists.delete(lists.keys().next().value!);
  const held = lists;
  entry.answer.then(
    (value) => {
      entry.value = value;
      entry.previous = undefined;
    },
    // A failed read is not kept: the next request tries again (and waits for it).
    () => {
      if (held.get(key) === entry) held.delete(key);
    },
  );
  return previous ? Promise.resolve(previous) : entry.answer;
}
