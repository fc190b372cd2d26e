import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiScenario, SCENARIOS, setScenario } from "@/lib/demo/cluster/scenarios";
import { settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";

// Diagnosis classifies on a signal's structured problem, never on its sentence: every signal the demo
// cluster can turn away from ok must say what is wrong as a kind, a subject and fields.

let sim: DemoMonitor;
beforeAll(async () => {
  sim = await startDemoMonitor();
});
afterAll(() => sim.stop());

describe("structured problems on the demo cluster's signals", () => {
  it("gives every signal that is not ok a problem kind, for every failure scenario and variant", async () => {
    const missing: string[] = [];
    const kinds = new Set<string>();
    let seen = 0;
    for (const scenario of SCENARIOS.filter((s) => !isApiScenario(s))) {
      for (const variant of scenario.variants ?? [undefined]) {
        setScenario(sim.server.cluster, scenario.id, true, { node: "master-0", ...(variant ? { variant } : {}) });
        const health = await settledPoll(sim.entry);
        setScenario(sim.server.cluster, scenario.id, false);
        await settledPoll(sim.entry);
        for (const signal of health.signals.filter((s) => s.state !== "ok")) {
          seen++;
          const p = signal.problem;
          if (!p || !p.kind || !p.subject || typeof p.fields !== "object")
            missing.push(`${scenario.id}${variant ? `/${variant}` : ""}: ${signal.id} ${signal.subject} (${signal.state})`);
          else kinds.add(p.kind);
        }
      }
    }
    expect(missing).toEqual([]);
    // The scenarios do turn signals away from ok, so the check above had something to check.
    expect(seen).toBeGreaterThan(20);
    expect([...kinds]).toEqual(
      expect.arrayContaining(["plugin-error", "kek-disagreement", "openbao-sealed", "transit-key-missing", "webhook-configuration-missing"]),
    );
  }, 240_000);

  it("says what is wrong in fields, not only in the sentence: a sealed OpenBao and an unhealthy plugin", async () => {
    setScenario(sim.server.cluster, "openbao-sealed", true);
    const sealed = await settledPoll(sim.entry);
    setScenario(sim.server.cluster, "openbao-sealed", false);
    await settledPoll(sim.entry);
    expect(sealed.signals.find((s) => s.id === "openbao.sealed")?.problem).toEqual({
      kind: "openbao-sealed",
      subject: "openbao",
      fields: { httpStatus: 503, state: "sealed", problem: null },
    });

    setScenario(sim.server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    const failing = await settledPoll(sim.entry);
    setScenario(sim.server.cluster, "kms-plugin-unavailable", false);
    await settledPoll(sim.entry);
    const plugin = failing.signals.find((s) => s.id === "kms.plugin.unhealthy" && s.state === "critical");
    expect(plugin?.problem).toMatchObject({
      kind: expect.stringMatching(/^plugin-(error|unhealthy)$/),
      subject: plugin?.subject,
      fields: { node: "master-1", source: "kubeapiservers" },
    });
    expect(plugin?.problem?.fields.keyID).toEqual(expect.any(String));
  }, 60_000);
});
