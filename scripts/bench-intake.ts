// npx tsx scripts/bench-intake.ts [500,1000,5000]: what the text boundary costs the monitor per cluster size:
// the first round (every object walked), a round where nothing changed, and one where one node changed.
import { performance } from "node:perf_hooks";
import type { Sources } from "@/lib/sources/sources";
import { intake, newIntakeMemo } from "@/lib/sources/intake";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { demoSources, upSource } from "@/test/demo-sources";

const sizes = (process.argv[2] ?? "500,1000,5000").split(",").map(Number);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const n of sizes) {
  const cluster = new DemoCluster({ nodes: n, intervalMs: 30_000 });
  const get = (plural: string) => cluster.object("operator.openshift.io", plural, "cluster");
  const nodes = cluster.objects("", "nodes");
  const sources = (nodeList: unknown[]) => demoSources(cluster, { nodes: nodeList });
  const bytes = JSON.stringify(sources(nodes)).length;
  const cold: number[] = [];
  const unchanged: number[] = [];
  const oneNode: number[] = [];
  const crChanged: number[] = [];
  for (let i = 0; i < 5; i++) {
    const memo = newIntakeMemo();
    const s = sources(nodes);
    let t = performance.now();
    intake(s, memo, () => undefined);
    cold.push(performance.now() - t);
    t = performance.now();
    intake(s, memo, () => undefined);
    unchanged.push(performance.now() - t);
    const changed = [...nodes];
    changed[0] = structuredClone(nodes[0]);
    t = performance.now();
    intake({ ...s, nodes: upSource("nodes", changed) } as Sources, memo, () => undefined);
    oneNode.push(performance.now() - t);
    // A reporter's write makes a new KubeAPIServer object (one condition per node in it).
    const cr = structuredClone(get("kubeapiservers"));
    t = performance.now();
    intake({ ...s, kubeapiserver: upSource("kubeapiserver", cr) } as Sources, memo, () => undefined);
    crChanged.push(performance.now() - t);
  }
  console.log(
    `${String(n).padStart(6)} nodes (${(bytes / 1e6).toFixed(1)} MB of JSON): first round ${median(cold).toFixed(1)} ms, nothing changed ${median(unchanged).toFixed(2)} ms, one node changed ${median(oneNode).toFixed(2)} ms, the KubeAPIServer CR changed ${median(crChanged).toFixed(2)} ms (median of 5)`,
  );
}
