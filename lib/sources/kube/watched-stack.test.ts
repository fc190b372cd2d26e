import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import type { Signal } from "@/lib/signals/signals";
import { settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";

// The bridge and the injected pods through the whole monitor: the demo cluster's API server, the real client's
// watches (the pods by label across namespaces), the readers and the signals, as the health page gets them.

let sim: DemoMonitor;
beforeAll(async () => {
  sim = await startDemoMonitor();
});
afterAll(() => sim.stop());

const POD = "payments/payments-api-7d9f8c6b5-x2k4p";
const BRIDGE = "cloudtaser-system/cloudtaser-bridge";
const find = (signals: Signal[], id: string, subject: string) => signals.find((s) => s.id === id && s.subject === subject);

async function during(scenario: string): Promise<{ on: Signal[]; off: Signal[] }> {
  setScenario(sim.server.cluster, scenario, true);
  const on = (await settledPoll(sim.entry)).signals;
  setScenario(sim.server.cluster, scenario, false);
  const off = (await settledPoll(sim.entry)).signals;
  return { on, off };
}

describe("the protection stack's bridge and wrapper on the demo cluster", () => {
  it("starts ok: the bridge has its replica, the injected pod's wrapper never restarted", async () => {
    const { signals } = await settledPoll(sim.entry);
    expect(find(signals, "bridge.unavailable", BRIDGE)).toMatchObject({ state: "ok", detail: "1 of 1 replicas available" });
    expect(find(signals, "wrapper.restarting", POD)).toMatchObject({ state: "ok", detail: "api: running, never restarted" });
  });

  it("wrapper-crash-loop: critical with kubelet's back-off and the wrapper's exit, then ok again", async () => {
    const { on, off } = await during("wrapper-crash-loop");
    expect(find(on, "wrapper.restarting", POD)).toMatchObject({
      state: "critical",
      detail:
        "api: CrashLoopBackOff after 9 restarts; last exit 1 (Error): wrapper exited during start-up; kubelet: back-off 5m0s restarting failed container=api pod=payments-api-7d9f8c6b5-x2k4p_payments",
      problem: {
        kind: "wrapper-crash-loop",
        fields: { exitCode: 1, reason: "Error", message: "wrapper exited during start-up", restarts: 9, waitingReason: "CrashLoopBackOff" },
      },
    });
    expect(find(off, "wrapper.restarting", POD)?.state).toBe("ok");
  });

  it("wrapper-killed-by-ebpf: a warning carrying exit 137 and the hook's message, then ok again", async () => {
    const { on, off } = await during("wrapper-killed-by-ebpf");
    expect(find(on, "wrapper.restarting", POD)).toMatchObject({
      state: "warning",
      detail: "api: running after 1 restart; last exit 137 (Error): killed by the eBPF enforcement hook",
      problem: { kind: "wrapper-restarted", fields: { exitCode: 137, message: "killed by the eBPF enforcement hook", restarts: 1 } },
    });
    expect(find(off, "wrapper.restarting", POD)?.state).toBe("ok");
  });

  // The wrapper's own words (seed 004's "Cannot connect to Vault?"), as the demo scenario prints them.
  const WRAPPER_BLOCKED = '{"level":"error","msg":"cannot connect to vault","error":"dial tcp 10.0.0.40:8200: connect: connection refused"}';
  it("wrapper-blocked-on-openbao: the wrapper's own words that it could not reach OpenBao are in the detail", async () => {
    const { on, off } = await during("wrapper-blocked-on-openbao");
    expect(find(on, "wrapper.restarting", POD)).toMatchObject({
      state: "critical",
      problem: { fields: { exitCode: 1, message: WRAPPER_BLOCKED, restarts: 4 } },
    });
    expect(find(on, "wrapper.restarting", POD)?.detail).toContain(`last exit 1 (Error): ${WRAPPER_BLOCKED}`);
    expect(find(off, "wrapper.restarting", POD)?.state).toBe("ok");
  });

  it("bridge-down: critical with 0 of 1 available, then ok again", async () => {
    const { on, off } = await during("bridge-down");
    expect(find(on, "bridge.unavailable", BRIDGE)).toMatchObject({
      state: "critical",
      detail: "0 of 1 replicas available",
      problem: { kind: "bridge-unavailable", fields: { available: 0, replicas: 1 } },
    });
    expect(find(off, "bridge.unavailable", BRIDGE)?.state).toBe("ok");
  });
});
