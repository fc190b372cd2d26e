import { describe, expect, it } from "vitest";
import { DEFAULT_NOTIFY_RETRY, NotifyRetry } from "@/lib/notify-config";
import { decide, isRetryableStatus, parseRetryAfter, retryDelaySeconds } from "./retry";

// The retry schedule without a receiver: doubling from 1 s with jitter, capped at 5 min, Retry-After within the cap.

const retry = DEFAULT_NOTIFY_RETRY;

describe("retry schedule", () => {
  it("doubles from the first delay, jitters within [half, whole] and stops at the cap", () => {
    const low = (n: number) => retryDelaySeconds(n, retry, undefined, () => 0);
    const high = (n: number) => retryDelaySeconds(n, retry, undefined, () => 1);
    expect([1, 2, 3, 4, 5].map(low)).toEqual([0.5, 1, 2, 4, 8]);
    expect([1, 2, 3, 4, 5].map(high)).toEqual([1, 2, 4, 8, 16]);
    expect(high(9)).toBe(256);
    expect(high(10)).toBe(300);
    expect(high(40)).toBe(300);
    expect(low(40)).toBe(150);
    for (let i = 0; i < 200; i++) {
      const d = retryDelaySeconds(4, retry);
      expect(d).toBeGreaterThanOrEqual(4);
      expect(d).toBeLessThanOrEqual(8);
    }
  });

  it("honours Retry-After (seconds or a date) within the cap", () => {
    expect(retryDelaySeconds(1, retry, 30)).toBe(30);
    expect(retryDelaySeconds(1, retry, 86_400)).toBe(300);
    expect(retryDelaySeconds(5, retry, 0)).toBe(1);
    expect(parseRetryAfter("120")).toBe(120);
    expect(parseRetryAfter("Wed, 21 Oct 2026 07:28:30 GMT", new Date("2026-10-21T07:28:00Z"))).toBe(30);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("retries 408, 429 and 5xx; every other 4xx and redirects are permanent", () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 410, 422, 301, 302].some(isRetryableStatus)).toBe(false);
  });

  it("gives up after the attempts or the age allowed, saying why", () => {
    const failure = { ok: false as const, permanent: false, reason: "connection refused" };
    const small = NotifyRetry.parse({ maxAttempts: 3, maxAgeSeconds: 60 });
    expect(decide(failure, 1, 0, small, () => 0)).toEqual({ status: "pending", delaySeconds: 0.5, reason: "connection refused" });
    expect(decide(failure, 3, 0, small)).toEqual({ status: "failed", reason: "gave up after 3 attempts: connection refused" });
    expect(decide(failure, 2, 59.5, small, () => 1)).toMatchObject({ status: "failed", reason: expect.stringMatching(/^gave up after 2 attempts over 60 s/) });
    expect(decide({ ok: false, permanent: true, reason: "HTTP 404" }, 1, 0, small)).toEqual({ status: "failed", reason: "HTTP 404" });
    expect(decide({ ok: true, status: 204 }, 7, 0, small)).toEqual({ status: "sent" });
  });
});
