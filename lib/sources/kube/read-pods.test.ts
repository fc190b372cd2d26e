import { describe, expect, it } from "vitest";
import { describeReadProblem } from "./read-problem";
import { readInjectedPod } from "./read-pods";

// Pods as the API server returns them (core/v1 Pod, kubelet's containerStatuses): a wrapped container that
// crash-loops, one restarted once by SIGKILL, one never restarted, a Pending pod, and hostile values.

const BACKOFF = "back-off 5m0s restarting failed container=api pod=payments-api-7d9f8c6b5-x2k4p_payments(3f1c2b9e-8d7a-4c6b-9e5f-1a2b3c4d5e6f)";

function pod(status: Record<string, unknown> | undefined, command: unknown = ["/cloudtaser/wrapper"]): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "payments-api-7d9f8c6b5-x2k4p", namespace: "payments", labels: { "cloudtaser.io/inject": "true" } },
    spec: {
      containers: [
        { name: "api", image: "registry.example/payments-api:1.4.2", command },
        { name: "istio-proxy", image: "istio/proxyv2:1.22.0", args: ["proxy", "sidecar"] },
      ],
    },
    ...(status ? { status } : {}),
  };
}

const statusOf = (api: Record<string, unknown>) => ({
  phase: "Running",
  containerStatuses: [
    { name: "api", image: "registry.example/payments-api:1.4.2", ready: false, started: false, ...api },
    { name: "istio-proxy", ready: true, restartCount: 4, state: { running: { startedAt: "2026-11-23T09:00:00Z" } } },
  ],
});

describe("readInjectedPod", () => {
  it("reads a crash-looping wrapper: kubelet's back-off, the restarts and how it last ended", () => {
    const view = readInjectedPod(
      pod(
        statusOf({
          restartCount: 9,
          state: { waiting: { reason: "CrashLoopBackOff", message: BACKOFF } },
          lastState: {
            terminated: {
              exitCode: 1,
              reason: "Error",
              message: "wrapper: OpenBao unreachable before the start-up timeout",
              startedAt: "2026-11-23T10:50:00Z",
              finishedAt: "2026-11-23T10:50:30Z",
              containerID: "cri-o://8f14e45fceea167a5a36dedd4bea2543d1c5f1e8b0e6f5a7c9d3b2a1e0f4c6d8",
            },
          },
        }),
      ),
    );
    expect(view).toEqual({
      name: "payments-api-7d9f8c6b5-x2k4p",
      namespace: "payments",
      // The sidecar does not run the wrapper: its restarts are not the wrapper's.
      wrapped: [
        {
          name: "api",
          reported: true,
          restartCount: 9,
          running: false,
          waiting: { reason: "CrashLoopBackOff", message: BACKOFF },
          lastTerminated: { exitCode: 1, reason: "Error", message: "wrapper: OpenBao unreachable before the start-up timeout" },
        },
      ],
      problems: [],
    });
  });

  it("reads a wrapper restarted once after SIGKILL (exit 137, reason Error) and running again", () => {
    const view = readInjectedPod(
      pod(
        statusOf({
          restartCount: 1,
          state: { running: { startedAt: "2026-11-23T10:51:00Z" } },
          lastState: { terminated: { exitCode: 137, signal: 9, reason: "Error", message: "killed by the eBPF enforcement hook" } },
        }),
      ),
    );
    expect(view.wrapped).toEqual([
      {
        name: "api",
        reported: true,
        restartCount: 1,
        running: true,
        lastTerminated: { exitCode: 137, signal: 9, reason: "Error", message: "killed by the eBPF enforcement hook" },
      },
    ]);
  });

  it("reads a wrapper never restarted, a Pending pod without containerStatuses, and a pod the webhook did not rewrite", () => {
    expect(readInjectedPod(pod(statusOf({ restartCount: 0, state: { running: { startedAt: "2026-11-23T10:00:00Z" } }, lastState: {} }))).wrapped).toEqual([
      { name: "api", reported: true, restartCount: 0, running: true },
    ]);
    expect(readInjectedPod(pod({ phase: "Pending", conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable" }] })).wrapped).toEqual([
      { name: "api", reported: false, restartCount: 0, running: false },
    ]);
    expect(readInjectedPod(pod(undefined, ["/app/server"])).wrapped).toEqual([]);
  });

  it("keeps both ends of a huge message, replaces a NUL, and names wrong types instead of guessing", () => {
    const huge = `wrapper: start-up failed: ${"x".repeat(1_000_000)}: dial tcp 10.0.0.5:8200: connect: connection refused`;
    const view = readInjectedPod(
      pod(
        statusOf({
          restartCount: "9",
          state: { waiting: { reason: "CrashLoop\u0000BackOff", message: 42 } },
          lastState: { terminated: { exitCode: "137", reason: ["Error"], message: huge } },
        }),
      ),
    );
    const api = view.wrapped[0];
    expect(api.restartCount).toBe(0);
    expect(api.waiting).toEqual({ reason: "CrashLoop\uFFFDBackOff" });
    // An exit code that is not a number is no exit code: the last termination is unknown.
    expect(api.lastTerminated).toBeUndefined();
    expect(view.problems.map(describeReadProblem)).toEqual([
      "status.containerStatuses[api].restartCount is a string, not a count",
      "status.containerStatuses[api].state.waiting.message is a number, not a string",
      "status.containerStatuses[api].lastState.terminated.exitCode is a string, not an integer",
      "status.containerStatuses[api].lastState.terminated.reason is an array, not a string",
    ]);

    const long = readInjectedPod(pod(statusOf({ restartCount: 2, lastState: { terminated: { exitCode: 1, message: huge } } }))).wrapped[0];
    expect(long.lastTerminated?.message?.length).toBeLessThanOrEqual(4_100);
    expect(long.lastTerminated?.message).toMatch(/^wrapper: start-up failed: x+ … x+: dial tcp 10\.0\.0\.5:8200: connect: connection refused$/);

    expect(readInjectedPod(pod({ containerStatuses: { api: {} } })).problems.map(describeReadProblem)).toEqual([
      "status.containerStatuses is an object, not an array",
    ]);
    expect(readInjectedPod("not a pod").problems.map(describeReadProblem)).toEqual(["Pod is a string, not an object"]);
    expect(readInjectedPod(pod(statusOf({ restartCount: 3, state: "waiting" }))).problems.map(describeReadProblem)).toEqual([
      "status.containerStatuses[api].state skipped: it is a string, not an object",
    ]);
  });
});
