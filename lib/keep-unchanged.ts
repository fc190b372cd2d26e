// Structural sharing between one round's document and the next (plain JSON-like values: objects, arrays, scalars).
// A monitor composes every cluster's health every round and keeps it until the next: a fresh copy of what did not
// change lives one round, long enough to be promoted to V8's old generation, and 100 clusters then grew the heap by
// hundreds of MB a minute between full collections. With the unchanged parts taken from the previous document, the
// new copy dies young, and what a viewer would notice still arrives as a new object.

/** `next`, with every part deeply equal to the same part of `previous` replaced by that part (`previous` itself when all are). */
export function keepUnchanged<T>(previous: unknown, next: T): T {
  return share(previous, next, 0) as T;
}

/** Deeper than any document composed here; past it a part is taken as new. */
const MAX_DEPTH = 64;

function share(previous: unknown, next: unknown, depth: number): unknown {
  if (previous === next || depth > MAX_DEPTH) return next;
  // A copy is made only from the first part that differs: an unchanged round allocates nothing here.
  if (Array.isArray(previous) && Array.isArray(next)) {
    let out: unknown[] | undefined = previous.length === next.length ? undefined : [];
    for (let i = 0; i < next.length; i++) {
      const kept = share(previous[i], next[i], depth + 1);
      if (!out && kept !== previous[i]) out = previous.slice(0, i);
      out?.push(kept);
    }
    return out ?? previous;
  }
  if (isPlain(previous) && isPlain(next)) {
    const keys = Object.keys(next);
    let out: Record<string, unknown> | undefined = keys.length === Object.keys(previous).length ? undefined : {};
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      const had = Object.hasOwn(previous, key);
      const kept = had ? share(previous[key], next[key], depth + 1) : next[key];
      if (!out && (!had || kept !== previous[key])) {
        out = {};
        for (let j = 0; j < k; j++) out[keys[j]] = previous[keys[j]];
      }
      if (out) out[key] = kept;
    }
    return out ?? previous;
  }
  return next;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
