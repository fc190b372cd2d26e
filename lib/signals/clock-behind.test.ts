import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { evalClock } from "@/test/diagnosis/eval";

// A node whose clock is behind, through the real client and the demo API server's managedFields: its reporter keeps
// writing, the API server stamps each write with its own time, and Faultline reads the node as skewed, not stale.

// One clock for the simulated cluster and the monitor, moved on by the test: a reporter round every 30 s.
const clock = evalClock();
let sim: DemoMonitor;
beforeAll(async () => {
  sim = await startDemoMonitor({ now: clock.now });
});
const round = () => {
  clock.advance(30_000);
  sim.server.cluster.report();
  return settledPoll(sim.entry, 5000, clock.now);
};
afterAll(() => sim.stop());

describe("a reporter on a node whose clock is behind", () => {
  it("is a clock-skew warning with its reports still read, where a stopped reporter is stale", async () => {
    const node = sim.server.cluster.model.nodes.find((n) => n.name === "master-2")!;
    node.clockSkewMs = -7 * 60_000;
    try {
      const health = await round();
      const of = (id: string, subject: string) => health.signals.find((s) => s.id === id && s.subject === subject);
      expect(of("kms.report.stale", "master-2")?.state).toBe("ok");
      expect(of("kms.report.clock-skew", "master-2")).toMatchObject({ state: "warning", problem: { kind: "report-clock-behind" } });
      expect(of("kms.report.clock-skew", "master-2")?.detail).toMatch(/is 4\d\ds behind the API server's time of the write/);
      // Its report is read, not set aside as stale: the simulated plugin on a skewed node fails, and says why.
      expect(of("kms.plugin.unhealthy", "master-2/1")?.state).toBe("critical");
      expect(of("kms.plugin.unhealthy", "master-2/1")?.detail).toMatch(/iat claim is in the future/);
    } finally {
      node.clockSkewMs = 0;
    }
    node.reporterRunning = false;
    try {
      // A stopped reporter's last write is as old as its lastChecked: stale, and no skew is claimed.
      for (let i = 0; i < 5; i++) await round();
      const later = await round();
      const of = (id: string, subject: string) => later.signals.find((s) => s.id === id && s.subject === subject);
      expect(of("kms.report.stale", "master-2")?.state).toBe("warning");
      expect(of("kms.report.clock-skew", "master-2")?.state).toBe("ok");
    } finally {
      node.reporterRunning = true;
    }
  }, 60_000);
});
