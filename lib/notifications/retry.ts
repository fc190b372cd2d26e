import type { NotifyRetry } from "@/lib/notify-config";

// When to try a notification again, and whether to: pure, so the schedule is tested without a receiver.

/** What one attempt came to, as the worker records it. */
export type AttemptResult = { ok: true; status: number } | { ok: false; permanent: boolean; reason: string; status?: number; retryAfterSeconds?: number };

/**
 * The delay after the `attempt`-th failed attempt (1-based): first, 2×first, 4×first... up to the cap, with
 * "equal jitter" (half fixed, half random) so receivers that come back are not hit by every sender at once.
 * A Retry-After from the receiver is honoured, within the cap.
 */
export function retryDelaySeconds(attempt: number, retry: NotifyRetry, retryAfterSeconds?: number, random: () => number = Math.random): number {
  if (retryAfterSeconds !== undefined) return Math.min(retry.capSeconds, Math.max(retryAfterSeconds, retry.firstSeconds));
  const exp = Math.min(retry.capSeconds, retry.firstSeconds * 2 ** Math.min(attempt - 1, 30));
  return exp / 2 + (exp / 2) * random();
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now.getTime()) / 1000);
}

/** 2xx delivered; 408, 429 and 5xx are worth another try; any other answer (4xx, a redirect) will not change by itself. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export type Decision = { status: "sent" } | { status: "failed"; reason: string } | { status: "pending"; delaySeconds: number; reason: string };

/** What to do with a notification after its `attempts`-th attempt, `ageSeconds` after the change. */
export function decide(result: AttemptResult, attempts: number, ageSeconds: number, retry: NotifyRetry, random: () => number = Math.random): Decision {
  if (result.ok) return { status: "sent" };
  if (result.permanent) return { status: "failed", reason: result.reason };
  if (attempts >= retry.maxAttempts) return { status: "failed", reason: `gave up after ${attempts} attempts: ${result.reason}` };
  const delaySeconds = retryDelaySeconds(attempts, retry, result.retryAfterSeconds, random);
  if (ageSeconds + delaySeconds > retry.maxAgeSeconds)
    return { status: "failed", reason: `gave up after ${attempts} attempts over ${Math.round(ageSeconds)} s: ${result.reason}` };
  return { status: "pending", delaySeconds, reason: result.reason };
}
