import { describe, expect, it } from "vitest";
import { recordFailure, recordSuccess } from "./sources";

describe("source state", () => {
  it("keeps the last-known value and the time it went down across failures", () => {
    const t = (s: number) => new Date(Date.UTC(2026, 7, 20, 10, 0, s));
    const ok = recordSuccess("openbao", { state: "active" }, t(0));
    const down = recordFailure(ok, "openbao", new Error("connect ECONNREFUSED"), t(5));
    const still = recordFailure(down, "openbao", new Error("connect ECONNREFUSED"), t(10));
    expect(still).toEqual({ name: "openbao", up: false, lastSuccess: t(0).toISOString(), downSince: t(5).toISOString(), lastError: "connect ECONNREFUSED", value: { state: "active" } });
    expect(recordSuccess("openbao", { state: "sealed" }, t(15))).toEqual({ name: "openbao", up: true, lastSuccess: t(15).toISOString(), value: { state: "sealed" } });
  });

  it("never keeps a bearer token from an error message", () => {
    expect(recordFailure(undefined, "kube", new Error("401 for Authorization: Bearer abc.def.ghi"), new Date()).lastError).toBe("401 for Authorization: Bearer ***");
  });
});
