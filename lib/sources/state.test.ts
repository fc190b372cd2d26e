import { describe, expect, it } from "vitest";
import { backingOff, recordFailure, recordSuccess } from "./state";

describe("source state", () => {
  it("keeps the last-known value and the time it went down across failures", () => {
    const t = (s: number) => new Date(Date.UTC(2026, 7, 20, 10, 0, s));
    const ok = recordSuccess("openbao", { state: "active" }, t(0));
    const down = recordFailure(ok, "openbao", new Error("connect ECONNREFUSED"), t(5));
    const still = recordFailure(down, "openbao", new Error("connect ECONNREFUSED"), t(10));
    expect(still).toEqual({
      name: "openbao",
      up: false,
      lastSuccess: t(0).toISOString(),
      downSince: t(5).toISOString(),
      lastError: "connect ECONNREFUSED",
      value: { state: "active" },
      failures: 2,
      retryAt: t(12).toISOString(),
    });
    expect(recordSuccess("openbao", { state: "sealed" }, t(15))).toEqual({
      name: "openbao",
      up: true,
      lastSuccess: t(15).toISOString(),
      value: { state: "sealed" },
    });
  });

  it("asks a failing source less and less often, up to 30 s, and at once again after it answers", () => {
    const t = (s: number) => new Date(Date.UTC(2026, 7, 20, 10, 0, 0) + s * 1000);
    let state = recordSuccess("readyz", { status: 200 }, t(0));
    const waits: number[] = [];
    for (let i = 0, at = 1; i < 7; i++) {
      state = recordFailure(state, "readyz", new Error("timed out"), t(at));
      const wait = (Date.parse(state.retryAt!) - t(at).getTime()) / 1000;
      waits.push(wait);
      expect(backingOff(state, t(at + wait - 0.5))).toBe(true);
      expect(backingOff(state, t(at + wait))).toBe(false);
      at += wait;
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30]);
    expect(backingOff(recordSuccess("readyz", { status: 200 }, t(100)), t(100))).toBe(false);
  });

  it("never keeps a bearer token from an error message", () => {
    expect(recordFailure(undefined, "kube", new Error("401 for Authorization: Bearer abc.def.ghi"), new Date()).lastError).toBe(
      "401 for Authorization: Bearer ***",
    );
  });
});
