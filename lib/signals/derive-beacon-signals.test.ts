import { describe, expect, it } from "vitest";
import { deriveBeaconSignals } from "./derive-beacon-signals";

describe("the beacon, as the bridge sees it", () => {
  it("is ok on 2xx, critical otherwise with what the bridge said, unknown when the bridge does not answer", () => {
    expect(deriveBeaconSignals({ status: 200, body: "ok\n" }).map((s) => [s.id, s.subject, s.state])).toEqual([["beacon.unreachable", "beacon", "ok"]]);
    expect(deriveBeaconSignals({ status: 503, body: "beacon unreachable: all 3 relay nodes down\n" })[0]).toMatchObject({
      state: "critical",
      detail: 'the bridge cannot reach the beacon: HTTP 503, "beacon unreachable: all 3 relay nodes down"',
    });
    expect(deriveBeaconSignals({ unreachable: true, error: "connect ECONNREFUSED 127.0.0.1:9" })[0]).toMatchObject({
      state: "unknown",
      detail: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("keeps a hostile body short and on one line", () => {
    const [signal] = deriveBeaconSignals({ status: 500, body: `${"x".repeat(1_000_000)}\nsecond line` });
    expect(signal.state).toBe("critical");
    expect(signal.detail.length).toBeLessThan(400);
    expect(signal.detail).not.toContain("second line");
  });
});
