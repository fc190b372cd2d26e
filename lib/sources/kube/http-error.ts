// A non-2xx answer of the Kubernetes API, and whether it is throttling. Kept apart from client.ts (which
// is server-only) so the source-state rules can recognise throttling without pulling in the client.

/** The longest Retry-After honoured: a server asking for more is asked again after this. */
export const RETRY_AFTER_MAX_SECONDS = 300;

/** Thrown for a non-2xx answer; carries the HTTP status, the Status message and any Retry-After. */
export class KubeHttpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Seconds the server asked the client to wait (Retry-After, or the Status's details.retryAfterSeconds). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /**
   * Throttling, not an outage: a 429 (API Priority and Fairness, max-inflight) or a 503 that says when to
   * come back. A 503 without Retry-After is an ordinary failure.
   */
  get throttled(): boolean {
    return this.code === 429 || (this.code === 503 && this.retryAfterSeconds !== undefined);
  }
}

export interface Throttle {
  status: number;
  /** What the server asked for, capped to 1..RETRY_AFTER_MAX_SECONDS (a 429 without one: 1 s, as APF's minimum). */
  retryAfterSeconds: number;
}

/** The throttling an error reports, or undefined when it is not throttling. */
export function throttleOf(error: unknown): Throttle | undefined {
  if (!(error instanceof KubeHttpError) || !error.throttled) return undefined;
  const asked = error.retryAfterSeconds ?? 1;
  return { status: error.code, retryAfterSeconds: Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(1, Math.ceil(asked))) };
}

/** The wait until the next try: what the server asked for plus up to 10 % (at most 1 s), so clients do not return in step. */
export function throttleDelayMs(throttle: Throttle, random: () => number = Math.random): number {
  const base = throttle.retryAfterSeconds * 1000;
  return base + Math.round(Math.min(1000, base * 0.1) * random());
}

/**
 * Seconds from a Retry-After header (delta-seconds or an HTTP-date) or a Status body's
 * details.retryAfterSeconds; undefined when neither holds a usable number (hostile text is ignored).
 */
export function parseRetryAfter(header: string | string[] | undefined, statusBody: unknown, now: number = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value === "string" && value.trim() !== "") {
    const text = value.trim();
    if (/^\d{1,10}$/.test(text)) return Number(text);
    const date = text.length <= 64 && /^[A-Za-z]{3},/.test(text) ? Date.parse(text) : NaN; // IMF-fixdate only
    if (Number.isFinite(date)) return Math.max(0, Math.ceil((date - now) / 1000));
  }
  const details = (statusBody as { details?: { retryAfterSeconds?: unknown } } | null | undefined)?.details;
  const seconds = details?.retryAfterSeconds;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}
