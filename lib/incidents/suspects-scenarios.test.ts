import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { SCENARIOS, setScenario } from "@/lib/demo/cluster/scenarios";
import { settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { rankSuspects } from "./suspects";

let sim: DemoMonitor;
beforeAll(async () => {
  sim = await startDemoMonitor();
});
afterAll(() => sim.stop());

// Signals the demo cluster raises tell these failure modes apart on their own (others share every signal
// and detail word with a neighbour; measured: 17 of the 37 scenarios that raise a signal rank first).
const FIRST = [
  "openbao-sealed",
  "openbao-tls-certificate-expired",
  "transit-key-deleted",
  "transit-key-soft-deleted",
  "clock-skew",
  "registry-state-missing",
  "registry-state-corrupt-or-rolled-back",
  "jwks-or-oidc-discovery-unreachable",
  "certificate-identity-drift",
  "kms-systemd-ordering-wrong",
  "webhook-misbehaving",
  "ebpf-image-compromised",
];

describe("suspects for the demo cluster's scenarios", () => {
  it("puts the injected failure mode first where the live signals can tell", async () => {
    const ranks: Record<string, number> = {};
    for (const scenario of SCENARIOS.filter((s) => s.catalog)) {
      setScenario(sim.server.cluster, scenario.id, true, { node: "master-0" });
      // Objects arrive by watch: wait until the change has fully arrived, and is gone again after clearing.
      const health = await settledPoll(sim.entry);
      setScenario(sim.server.cluster, scenario.id, false);
      await settledPoll(sim.entry);
      const active = health.signals.filter((s) => s.state !== "ok");
      if (active.length === 0) continue;
      const ranked = rankSuspects({
        active: active.map((s) => ({ signal: s.id, subject: s.subject, state: s.state, detail: s.detail })),
        entries: getCatalog().entries,
        limit: 100,
      });
      ranks[scenario.catalog!] = ranked.findIndex((r) => r.id === scenario.catalog);
    }
    expect(Object.fromEntries(FIRST.map((id) => [id, ranks[id]]))).toEqual(Object.fromEntries(FIRST.map((id) => [id, 0])));
    expect(Object.values(ranks).filter((r) => r === 0).length).toBeGreaterThanOrEqual(17);
  }, 120_000);
});
