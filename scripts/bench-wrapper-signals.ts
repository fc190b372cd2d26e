// npx tsx scripts/bench-wrapper-signals.ts [5000]: what wrapper.restarting costs a round with that many injected
// pods, half of them crash-looping with a 2,800-character termination message: the first round (every pod read
// and judged) and the rounds after it, when the watch hands over the same, unchanged pod objects.
import { performance } from "node:perf_hooks";
import { readInjectedPod } from "@/lib/sources/kube/read-pods";
import { deriveWrapperSignals } from "@/lib/signals/derive-wrapper-signals";

const count = Number(process.argv[2] ?? 5000);
const crashing = (i: number) => ({
  name: "api",
  restartCount: 9,
  state: { waiting: { reason: "CrashLoopBackOff", message: `back-off 5m0s restarting failed container=api pod=api-${i}_ns(uid)` } },
  lastState: { terminated: { exitCode: 1, reason: "Error", message: "wrapper: OpenBao unreachable before the start-up timeout ".repeat(50) } },
});
const pods = Array.from({ length: count }, (_, i) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: `api-${i}`, namespace: `ns-${i % 50}`, labels: { "cloudtaser.io/inject": "true" } },
  spec: { containers: [{ name: "api", image: "registry.example/api:1", command: ["/cloudtaser/wrapper"] }] },
  status: { phase: "Running", containerStatuses: [i % 2 ? crashing(i) : { name: "api", restartCount: 0, state: { running: {} } }] },
}));

for (let round = 0; round < 5; round++) {
  const start = performance.now();
  const signals = deriveWrapperSignals({ pods: pods.map((pod) => readInjectedPod(pod)), cut: 0 });
  const states = signals.filter((s) => s.state === "critical").length;
  console.log(`${count} pods, round ${round}: ${(performance.now() - start).toFixed(1)} ms (${states} critical)`);
}
