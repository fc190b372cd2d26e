// The state of one source (a Kubernetes read, an HTTP probe) as the monitor last saw it: up or down,
// since when, and the last value it returned, which pages keep showing while it is down.

export interface SourceState<T = unknown> {
  name: string;
  up: boolean;
  /** When it last answered. */
  lastSuccess?: string;
  /** When it went down (the first failure after a success), for "stale since T". */
  downSince?: string;
  lastError?: string;
  value?: T;
  /** For a watched source: how often it listed, reconnected, was found silent, or got 410 Gone. */
  watch?: { lists: number; reconnects: number; stalls: number; expired: number; notServed?: boolean };
}

export function recordSuccess<T>(name: string, value: T, at: Date): SourceState<T> {
  return { name, up: true, lastSuccess: at.toISOString(), value };
}

/** A failure keeps the last-known value; the error text is cut short and never holds a token. */
export function recordFailure<T>(previous: SourceState<T> | undefined, name: string, error: unknown, at: Date): SourceState<T> {
  const message = (error instanceof Error ? error.message : String(error)).replace(/Bearer\s+\S+/gi, "Bearer ***").slice(0, 300);
  return {
    name,
    up: false,
    lastSuccess: previous?.lastSuccess,
    downSince: previous?.up === false ? previous.downSince : at.toISOString(),
    lastError: message,
    value: previous?.value,
  };
}
