import { describe, expect, it } from "vitest";
import { readInjectedPod } from "@/lib/sources/kube/read-pods";
import { deriveWrapperSignals } from "./derive-wrapper-signals";

// wrapper.restarting from pods as the API server returns them, read by the real reader: the detail carries
// kubelet's words and the wrapper's own exit, the problem carries them as fields for the diagnosis.

const BACKOFF = "back-off 5m0s restarting failed container=api pod=payments-api-7d9f8c6b5-x2k4p_payments(3f1c2b9e-8d7a-4c6b-9e5f-1a2b3c4d5e6f)";

function pod(name: string, api: Record<string, unknown> | undefined): unknown {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "payments", labels: { "cloudtaser.io/inject": "true" } },
    spec: { containers: [{ name: "api", image: "registry.example/payments-api:1.4.2", command: ["/cloudtaser/wrapper"] }] },
    status: api ? { phase: "Running", containerStatuses: [{ name: "api", ready: false, ...api }] } : { phase: "Pending" },
  };
}
const derive = (pods: unknown[], cut = 0) => deriveWrapperSignals({ pods: pods.map((p) => readInjectedPod(p)), cut });

const crashLoop = (message: string) =>
  pod("payments-api-7d9f8c6b5-x2k4p", {
    restartCount: 9,
    state: { waiting: { reason: "CrashLoopBackOff", message: BACKOFF } },
    lastState: { terminated: { exitCode: 1, reason: "Error", message } },
  });

describe("deriveWrapperSignals", () => {
  it("is critical while the wrapper waits in CrashLoopBackOff, with kubelet's message and the wrapper's last exit", () => {
    const [signal] = derive([crashLoop("wrapper: OpenBao unreachable before the start-up timeout")]);
    expect(signal).toMatchObject({ id: "wrapper.restarting", subject: "payments/payments-api-7d9f8c6b5-x2k4p", state: "critical" });
    expect(signal.detail).toBe(
      `api: CrashLoopBackOff after 9 restarts; last exit 1 (Error): wrapper: OpenBao unreachable before the start-up timeout; kubelet: ${BACKOFF}`,
    );
    expect(signal.problem).toEqual({
      kind: "wrapper-crash-loop",
      subject: "payments/payments-api-7d9f8c6b5-x2k4p",
      fields: {
        container: "api",
        restarts: 9,
        waitingReason: "CrashLoopBackOff",
        waitingMessage: BACKOFF,
        exitCode: 1,
        signal: null,
        reason: "Error",
        message: "wrapper: OpenBao unreachable before the start-up timeout",
      },
    });
  });

  it("is a warning after a restart whose end is known (exit 137, SIGKILL by the eBPF hook), ok when never restarted or not started", () => {
    const signals = derive([
      pod("killed", {
        restartCount: 1,
        state: { running: { startedAt: "2026-11-23T10:51:00Z" } },
        lastState: { terminated: { exitCode: 137, reason: "Error", message: "killed by the eBPF enforcement hook" } },
      }),
      pod("steady", { restartCount: 0, state: { running: { startedAt: "2026-11-23T10:00:00Z" } } }),
      pod("pending", undefined),
      pod("restarted-unknown-end", { restartCount: 2, state: { running: {} } }),
    ]);
    expect(signals.map((s) => [s.subject, s.state, s.detail])).toEqual([
      ["payments/killed", "warning", "api: running after 1 restart; last exit 137 (Error): killed by the eBPF enforcement hook"],
      ["payments/steady", "ok", "api: running, never restarted"],
      ["payments/pending", "ok", "api: not started yet (no container status)"],
      ["payments/restarted-unknown-end", "ok", "api: running after 2 restarts; how it last ended is not reported"],
    ]);
    expect(signals[0].problem).toEqual({
      kind: "wrapper-restarted",
      subject: "payments/killed",
      fields: {
        container: "api",
        restarts: 1,
        waitingReason: null,
        waitingMessage: null,
        exitCode: 137,
        signal: null,
        reason: "Error",
        message: "killed by the eBPF enforcement hook",
      },
    });
  });

  it("keeps a huge message short in the detail, with its end (the cause), and never floods: one signal per pod", () => {
    const huge = `wrapper: start-up failed: ${"secret-free noise ".repeat(50_000)}: dial tcp 10.0.0.5:8200: connect: connection refused`;
    const pods = Array.from({ length: 200 }, (_, i) => ({ ...(crashLoop(huge) as object), metadata: { name: `api-${i}`, namespace: "payments" } }));
    const signals = derive(pods);
    expect(signals).toHaveLength(200);
    for (const s of signals) {
      expect(s.detail.length).toBeLessThanOrEqual(400);
      expect(s.detail).toContain("dial tcp 10.0.0.5:8200: connect: connection refused; kubelet: back-off 5m0s");
      expect(String(s.problem?.fields.message).length).toBeLessThanOrEqual(1_000);
      expect(s.problem?.fields.message).toMatch(/connection refused$/);
      // The page receives every pod's signal: the evidence keeps the messages as short as the problem does.
      expect(JSON.stringify(s.evidence).length).toBeLessThanOrEqual(2_500);
    }
  });

  it("says when pods beyond the bound were not read, and is unknown for a pod it cannot read", () => {
    const signals = derive([pod("odd", { restartCount: "many", state: "crashing" })], 12);
    expect(signals.map((s) => [s.subject, s.state])).toEqual([
      ["payments/odd", "unknown"],
      ["injected pods", "unknown"],
    ]);
    expect(signals[0].detail).toBe(
      "pod could not be read: status.containerStatuses[api].restartCount is a string, not a count; status.containerStatuses[api].state skipped: it is a string, not an object",
    );
    expect(signals[1].detail).toBe("at least 12 more injected pods were not read (1 kept): their wrappers are not checked");
    expect(signals[1].problem).toMatchObject({ kind: "wrapper-pods-cut", fields: { kept: 1, more: 12 } });
  });
});
