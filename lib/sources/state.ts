// The state of one source (a Kubernetes read, an HTTP probe) as the monitor last saw it: up or down,
// since when, and the last value it returned, which pages keep showing while it is down. A server that
// throttles (429, or 503 with Retry-After) answered: the source stays up with its last value, is marked
// throttled (since when, retrying when), and is asked again after Retry-After, not the normal backoff.

import { throttleDelayMs, throttleOf } from "@/lib/sources/kube/http-error";

export interface SourceState<T = unknown> {
  name: string;
  up: boolean;
  /** When it last answered. */
  lastSuccess?: string;
  /** When it went down (the first failure after a success), for "stale since T". */
  downSince?: string;
  lastError?: string;
  value?: T;
  /** For a polled source that is down: failures in a row, and when it is next asked (capped backoff or Retry-After). */
  failures?: number;
  retryAt?: string;
  /** The server throttles this source: since when, what it answered, and when it is asked again. */
  throttled?: SourceThrottle;
  /**
   * For a watched source: how often it listed, reconnected, was found silent, or got 410 Gone; objects beyond its bound;
   * and the resourceVersion it has read up to (its last event or bookmark), to hold against the API server's.
   */
  watch?: { lists: number; reconnects: number; stalls: number; expired: number; notServed?: boolean; cut?: number; resourceVersion?: string };
}

export interface SourceThrottle {
  since: string;
  status: number;
  retryAfterSeconds: number;
  retryAt: string;
}

export function recordSuccess<T>(name: string, value: T, at: Date): SourceState<T> {
  return { name, up: true, lastSuccess: at.toISOString(), value };
}

/** A source that keeps failing is asked again after 1 s, 2 s, 4 s ... up to this. */
export const PROBE_BACKOFF_MAX_MS = 30_000;

/** A failure keeps the last-known value; the error text is cut short and never holds a token. */
export function recordFailure<T>(previous: SourceState<T> | undefined, name: string, error: unknown, at: Date): SourceState<T> {
  const message = (error instanceof Error ? error.message : String(error)).replace(/Bearer\s+\S+/gi, "Bearer ***").slice(0, 300);
  const throttle = throttleOf(error);
  if (throttle) {
    const retryAt = new Date(at.getTime() + throttleDelayMs(throttle)).toISOString();
    const since = previous?.throttled?.since ?? at.toISOString();
    return {
      name,
      up: true,
      lastSuccess: previous?.lastSuccess,
      lastError: message,
      value: previous?.value,
      retryAt,
      throttled: { since, status: throttle.status, retryAfterSeconds: throttle.retryAfterSeconds, retryAt },
    };
  }
  const failures = (previous?.up === false ? (previous.failures ?? 1) : 0) + 1;
  return {
    name,
    up: false,
    lastSuccess: previous?.lastSuccess,
    downSince: previous?.up === false ? previous.downSince : at.toISOString(),
    lastError: message,
    value: previous?.value,
    failures,
    retryAt: new Date(at.getTime() + Math.min(PROBE_BACKOFF_MAX_MS, 1000 * 2 ** (failures - 1))).toISOString(),
  };
}

/** Whether a down or throttled source is still waiting (backoff or Retry-After); then it keeps its state and is not asked. */
export function backingOff(state: SourceState | undefined, at: Date): boolean {
  return (state?.up === false || state?.throttled !== undefined) && state.retryAt !== undefined && Date.parse(state.retryAt) > at.getTime();
}
