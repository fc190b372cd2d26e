import { describe, expect, it } from "vitest";
import { backingOff, recordFailure, recordSuccess } from "@/lib/sources/state";
import { KubeHttpError, parseRetryAfter, throttleDelayMs, throttleOf } from "./http-error";

describe("throttling answers", () => {
  it("reads Retry-After as seconds or an HTTP date, else the Status's details, and ignores hostile text", () => {
    const now = Date.UTC(2026, 10, 23, 6, 0, 0);
    expect(parseRetryAfter("7", undefined, now)).toBe(7);
    expect(parseRetryAfter(["3", "9"], undefined, now)).toBe(3);
    expect(parseRetryAfter("Mon, 23 Nov 2026 06:00:30 GMT", undefined, now)).toBe(30);
    expect(parseRetryAfter("soon; rm -rf /", { details: { retryAfterSeconds: 4 } }, now)).toBe(4);
    expect(parseRetryAfter("-5", { details: { retryAfterSeconds: "9" } }, now)).toBeUndefined();
    expect(parseRetryAfter("1".repeat(400), undefined, now)).toBeUndefined();
  });

  it("calls a 429, or a 503 that says when to come back, throttling; caps the wait at 5 min; a bare 503 is a failure", () => {
    expect(throttleOf(new KubeHttpError(429, "x", 2))).toEqual({ status: 429, retryAfterSeconds: 2 });
    expect(throttleOf(new KubeHttpError(429, "x"))).toEqual({ status: 429, retryAfterSeconds: 1 });
    expect(throttleOf(new KubeHttpError(503, "x", 86_400))).toEqual({ status: 503, retryAfterSeconds: 300 });
    expect(throttleOf(new KubeHttpError(503, "x"))).toBeUndefined();
    expect(throttleOf(new KubeHttpError(500, "x", 5))).toBeUndefined();
    expect(throttleOf(new Error("429"))).toBeUndefined();
    expect(throttleDelayMs({ status: 429, retryAfterSeconds: 5 }, () => 0)).toBe(5000);
    expect(throttleDelayMs({ status: 429, retryAfterSeconds: 5 }, () => 1)).toBe(5500);
    expect(throttleDelayMs({ status: 429, retryAfterSeconds: 300 }, () => 1)).toBe(301_000);
  });

  it("keeps a throttled probe up with its last value, since when, and waits Retry-After instead of the backoff", () => {
    const t = (s: number) => new Date(Date.UTC(2026, 10, 23, 6, 0, 0) + s * 1000);
    const ok = recordSuccess("readyz", { status: 200, body: "ok" }, t(0));
    const first = recordFailure(ok, "readyz", new KubeHttpError(429, "GET /readyz?verbose: 429 Too many requests", 10), t(5));
    const again = recordFailure(first, "readyz", new KubeHttpError(429, "GET /readyz?verbose: 429 Too many requests", 10), t(16));
    expect(again).toMatchObject({
      up: true,
      value: { status: 200, body: "ok" },
      lastSuccess: t(0).toISOString(),
      throttled: { since: t(5).toISOString(), status: 429, retryAfterSeconds: 10 },
    });
    expect(again.downSince).toBeUndefined();
    expect(backingOff(again, t(25))).toBe(true);
    expect(backingOff(again, t(27.1))).toBe(false);
    // An outage after throttling is an outage again, with the ordinary backoff.
    const down = recordFailure(again, "readyz", new Error("connect ECONNREFUSED"), t(30));
    expect(down).toMatchObject({ up: false, downSince: t(30).toISOString(), failures: 1 });
    expect(down.throttled).toBeUndefined();
  });
});
