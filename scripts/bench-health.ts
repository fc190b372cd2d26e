// npm run bench:health -- [500,1000,5000]: how long composing one cluster's health takes as the cluster
// grows (the KMS matrices, rollup and every signal from the simulator's objects). Per-row work must stay
// linear: the ratio between sizes says so, whatever the machine is doing. Then what one plugin failing
// costs the pages: the push (lib/live/health-push.ts) against the whole health they fetched before.
// `-- --server [--nodes 50,5000]`: the production server at each size (bench-health-web.ts): API latency, the
// page's HTML, LCP in Chromium. `-- --memory [--minutes 30] [--nodes 5000]`: resident memory over time.
import { performance } from "node:perf_hooks";
import { composeClusterHealth } from "@/lib/signals/cluster-health";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { demoSources, withReport } from "@/test/demo-sources";
import { readSources } from "@/lib/sources/readings";
import { applyHealthPush, diffHealth } from "@/lib/live/health-push";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = (args[0] && !args[0].startsWith("--") ? args[0] : "500,1000,5000").split(",").map(Number);
const port = Number(process.env.FAULTLINE_BENCH_PORT ?? 3204);

async function main() {
  if (args.includes("--memory")) {
    const { benchMemory } = await import("./bench-health-memory");
    return benchMemory({ nodes: Number(flag("--nodes", "5000")), minutes: Number(flag("--minutes", "30")), port, everySeconds: 15 });
  }
  if (args.includes("--server")) {
    const { benchWeb } = await import("./bench-health-web");
    return benchWeb({ sizes: flag("--nodes", "50,5000").split(",").map(Number), port });
  }
  return benchCompose();
}

async function benchCompose() {
  const results: { nodes: number; ms: number; signals: number; wholeBytes: number; pushBytes: number; roundBytes: number; diffMs: number; applyMs: number }[] =
    [];
  for (const n of sizes) {
    const cluster = new DemoCluster({ nodes: n, intervalMs: 30_000 });
    const sources = demoSources(cluster);
    const now = new Date();
    const input = { name: "bench", simulated: true, intervalSeconds: 30, now };
    // Reading the objects is part of composing, as in the monitor.
    const run = () => composeClusterHealth({ ...input, readings: readSources(sources) });
    run(); // warm up
    const times: number[] = [];
    let signals = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      signals = run().signals.length;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    // One plugin fails between two composes at the same instant: its reporter condition in the CR says unhealthy, nothing
    // else changes. The push carries that change. A reporter round (every node writes a new lastChecked) is
    // measured too: that push carries every cell, because every cell changed.
    const before = run();
    const failed = withReport(cluster.object("operator.openshift.io", "kubeapiservers", "cluster"), "master-0", {
      status: "unhealthy",
      detail: "rpc error: code = Unavailable desc = connection refused",
    });
    const after = composeClusterHealth({ ...input, readings: readSources(demoSources(cluster, { kubeapiserver: failed })) });
    const t1 = performance.now();
    const push = diffHealth(before, after, 2, 1);
    const diffMs = performance.now() - t1;
    const t2 = performance.now();
    const applied = applyHealthPush({ ...before, version: 1 }, push);
    const applyMs = performance.now() - t2;
    if (JSON.stringify(applied) !== JSON.stringify({ ...after, version: 2 })) throw new Error(`${n} nodes: the applied push does not give the new health`);
    // Reports carry lastChecked to the second: the round is written in the next second, as a real one would be.
    await new Promise((r) => setTimeout(r, 1_005 - (Date.now() % 1_000)));
    cluster.report();
    const round = composeClusterHealth({
      ...input,
      now: new Date(now.getTime() + 30_000),
      readings: readSources(demoSources(cluster)),
    });
    const roundBytes = JSON.stringify(diffHealth(before, round, 2, 1)).length;
    results.push({
      nodes: n,
      ms: Math.round(times[2]),
      signals,
      wholeBytes: JSON.stringify(after).length,
      pushBytes: JSON.stringify(push).length,
      roundBytes,
      diffMs: Math.round(diffMs),
      applyMs: Math.round(applyMs),
    });
  }
  for (const r of results) {
    console.log(
      `${String(r.nodes).padStart(6)} nodes: compose ${r.ms} ms (median of 5), ${r.signals} signals; one plugin fails: push ${r.pushBytes} bytes ` +
        `vs whole health ${r.wholeBytes} bytes (1/${Math.round(r.wholeBytes / r.pushBytes)}), diff ${r.diffMs} ms, apply ${r.applyMs} ms; a reporter round: push ${r.roundBytes} bytes`,
    );
  }
  const [first, last] = [results[0], results[results.length - 1]];
  console.log(`time ratio ${(last.ms / Math.max(1, first.ms)).toFixed(1)} for ${(last.nodes / first.nodes).toFixed(1)} times the nodes`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
