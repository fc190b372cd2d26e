import type { ClusterModel } from "./model";

// Counters that grow with the cluster clock. Each scrape advances them by rate × the seconds since the
// previous scrape of the same endpoint, at the rates the model implies now; so they only ever go up,
// and errors counted during a scenario stay counted after it clears, as on a real server.

export interface CounterScope {
  /** Adds rate × elapsed to a counter, created at base; without a base it stays absent until its rate is above 0. */
  grow(key: string, ratePerSecond: number, base?: number): number | undefined;
  /** Adds rate × elapsed observations of `seconds` to a histogram series. */
  observe(key: string, ratePerSecond: number, seconds: number): void;
  histograms(): [string, HistogramState][];
  /** Remembered values (key_id hashes and when Status last returned them). */
  memo: Map<string, number>;
  /** Seconds since the previous scrape (0 on the first). */
  elapsed: number;
}

export interface HistogramState {
  buckets: number[];
  sum: number;
  count: number;
}

interface ScopeState {
  last?: number;
  counters: Map<string, number>;
  histograms: Map<string, HistogramState>;
  memo: Map<string, number>;
}

// Per model object: a scenario change rebuilds the model in place, so the counters survive it.
const STATE = new WeakMap<ClusterModel, Map<string, ScopeState>>();

export const LATENCY_BUCKETS = Array.from({ length: 20 }, (_, i) => Number((0.0001 * 2 ** i).toPrecision(6)));

/** Forgets the model's counters, as if its API servers and plugins had restarted (between the evaluation's cases). */
export function resetCounters(model: ClusterModel): void {
  STATE.delete(model);
}

/** The counters of one endpoint ("apiserver/master-0"), advanced to `seconds` (never backwards). */
export function counterScope(model: ClusterModel, scope: string, seconds: number): CounterScope {
  let scopes = STATE.get(model);
  if (!scopes) STATE.set(model, (scopes = new Map()));
  let state = scopes.get(scope);
  if (!state) scopes.set(scope, (state = { counters: new Map(), histograms: new Map(), memo: new Map() }));
  const elapsed = state.last === undefined || !Number.isFinite(seconds) ? 0 : Math.max(0, seconds - state.last);
  if (Number.isFinite(seconds)) state.last = Math.max(state.last ?? seconds, seconds);
  const { counters, histograms, memo } = state;
  return {
    elapsed,
    memo,
    grow(key, rate, base) {
      const current = counters.get(key);
      if (current === undefined && base === undefined && !(rate > 0)) return undefined;
      const next = (current ?? base ?? 0) + (rate > 0 ? rate * elapsed : 0);
      counters.set(key, next);
      return next;
    },
    observe(key, rate, value) {
      let h = histograms.get(key);
      if (!h) {
        if (rate <= 0) return;
        histograms.set(key, (h = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
      }
      const n = Math.max(0, rate) * elapsed;
      if (n === 0) return;
      LATENCY_BUCKETS.forEach((le, i) => {
        if (value <= le) h.buckets[i] += n;
      });
      h.sum += n * value;
      h.count += n;
    },
    histograms: () => [...histograms.entries()],
  };
}
