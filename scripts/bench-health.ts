// npm run bench:health -- [500,1000,5000]: how long composing one cluster's health takes as the cluster
// grows (the KMS matrices, rollup and every signal from the simulator's objects). Per-row work must stay
// linear: the ratio between sizes says so, whatever the machine is doing.
import { performance } from "node:perf_hooks";
import { composeClusterHealth } from "@/lib/signals/cluster-health";
import type { Sources } from "@/lib/sources/observation";
import { DemoCluster } from "@/lib/demo/cluster/cluster";

const sizes = (process.argv[2] ?? "500,1000,5000").split(",").map(Number);
const up = (name: string, value: unknown) => ({ name, up: true, lastSuccess: new Date().toISOString(), value });

const results: { nodes: number; ms: number; signals: number }[] = [];
for (const n of sizes) {
  const cluster = new DemoCluster({ nodes: n, intervalMs: 30_000 });
  const get = (plural: string) => cluster.object("operator.openshift.io", plural, "cluster");
  const sources = {
    kubeapiserver: up("kubeapiserver", get("kubeapiservers")),
    openshiftapiserver: up("openshiftapiserver", get("openshiftapiservers")),
    authentication: up("authentication", get("authentications")),
    nodes: up("nodes", cluster.objects("", "nodes")),
  } as Sources;
  const run = () => composeClusterHealth({ name: "bench", simulated: true, intervalSeconds: 30, sources, now: new Date() });
  run(); // warm up
  const times: number[] = [];
  let signals = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    signals = run().signals.length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  results.push({ nodes: n, ms: Math.round(times[2]), signals });
}
for (const r of results) console.log(`${String(r.nodes).padStart(6)} nodes: compose ${r.ms} ms (median of 5), ${r.signals} signals`);
const [first, last] = [results[0], results[results.length - 1]];
console.log(`time ratio ${(last.ms / Math.max(1, first.ms)).toFixed(1)} for ${(last.nodes / first.nodes).toFixed(1)} times the nodes`);
