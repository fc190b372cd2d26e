import { addReport, cleanText, cleanValue, describeReport, emptyReport, isClean, type CleanReport } from "@/lib/text/outside-text";
import type { Sources } from "./sources";
import type { SourceState } from "./state";

// Where every source enters the monitor (watched objects, probe bodies, metric answers): each value passes
// the text boundary once, so nothing downstream (health model, storage, incident rules) sees a NUL or a
// lone surrogate. A value the monitor already cleaned, or an unchanged watched object, is not walked again.

export interface IntakeMemo {
  /** Per source: the raw value last cleaned, its clean copy, and what cleaning changed. */
  last: Map<string, { raw: unknown; value: unknown }>;
  /** Per object of a collection (nodes, endpoints): a watch keeps unchanged objects, so they cost nothing. */
  items: WeakMap<object, { value: unknown; report: CleanReport }>;
  /** What cleaning changed per source, for the page ("2 characters replaced (U+0000)"); none when clean. */
  notes: Map<string, string>;
}

export const newIntakeMemo = (): IntakeMemo => ({ last: new Map(), items: new WeakMap(), notes: new Map() });

// A CR of a 5,000-node cluster holds a condition per node (6,006 items in the simulator's): the default of 2,000
// items would drop health reports. The client has already parsed the object, so this caps what is stored and shown.
const LIMITS = { maxItems: 20_000 };

const fresh = (): CleanReport => ({ ...emptyReport(), refused: new Set<string>() });

function cleanOne(value: unknown, memo: IntakeMemo, report: CleanReport): unknown {
  if (value === null || typeof value !== "object") return cleanValue(value, LIMITS, report);
  let seen = memo.items.get(value);
  if (!seen) {
    const own = fresh();
    // Clean input (the usual case) is only read, not copied.
    seen = { value: isClean(value, LIMITS) ? value : cleanValue(value, LIMITS, own), report: own };
    memo.items.set(value, seen);
  }
  addReport(report, seen.report);
  return seen.value;
}

/**
 * The sources with every value and error text made safe to store and show. A source whose cleaning
 * changed something gets a note, logged once (counts and code points only, never the text itself).
 */
export function intake<T extends Partial<Sources>>(sources: T, memo: IntakeMemo, log: (line: string) => void): T {
  const out: Record<string, SourceState> = {};
  for (const [name, source] of Object.entries(sources) as [string, SourceState | undefined][]) {
    if (!source) continue;
    let last = memo.last.get(name);
    if (!last || (last.raw !== source.value && last.value !== source.value)) {
      const report = fresh();
      // A collection is cleaned per object: no item cap on the list itself (5,000 nodes are not "too many").
      const value = Array.isArray(source.value) ? source.value.map((item) => cleanOne(item, memo, report)) : cleanOne(source.value, memo, report);
      last = { raw: source.value, value };
      memo.last.set(name, last);
      const note = describeReport(report);
      if (note !== (memo.notes.get(name) ?? "")) {
        if (note) log(`${name}: cleaned: ${note}`);
        if (note) memo.notes.set(name, note);
        else memo.notes.delete(name);
      }
    }
    out[name] = { ...source, value: last.value, ...(source.lastError === undefined ? {} : { lastError: cleanText(source.lastError, 300) }) };
  }
  return out as T;
}
