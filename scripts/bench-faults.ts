// npm run bench:faults -- [tries] [fault,...]: per API fault of the simulated API server, how long after
// the fault clears Faultline's health shows the truth again (every source up and not throttled, and
// the change made during the fault in the KMS matrix). The monitor runs as in production: watches push
// changes at once, rounds of probes every FAULTLINE_POLL_SECONDS' default; the page reads entry.health.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ClusterConfig } from "@/lib/clusters/config";
import { DEFAULT_WATCH_TUNING } from "@/lib/sources/kube/watch";
import { pollOnce, type Monitored } from "@/lib/monitor/monitor";
import { newMemo } from "@/lib/store/persist";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { kubeconfigFor } from "@/lib/demo/cluster/kubeconfig";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { DemoServer } from "@/lib/demo/cluster/server";

const TRIES = Number(process.argv[2] ?? "10");
const ONLY = process.argv[3]?.split(",");
/** Faultline's defaults, except the stall bound of the blackhole case (180 s would take an hour for 10 tries). */
const POLL_SECONDS = 2;
const STALL_SECONDS = DEFAULT_WATCH_TUNING.stallMs / 1000;
const BLACKHOLE_STALL_SECONDS = 10;
const RETRY_AFTER_SECONDS = 5;
const SLOW_MS = 3000;
const SETTLE_MS = 3000;
const NODE = "master-0"; // the API server behind the kubeconfig is master-0's instance

type Health = NonNullable<Monitored["health"]>;

interface Rig {
  server: DemoServer;
  entry: Monitored;
  stop: () => Promise<void>;
}

/** A simulated cluster with the real bookmark cadence (the simulator's default, a minute) and a monitor reading it. */
async function startRig(stallSeconds: number): Promise<Rig> {
  const server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }) });
  const endpoints = await server.start();
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-bench-faults-"));
  const kubeconfig = path.join(dir, "bench.kubeconfig");
  writeFileSync(kubeconfig, kubeconfigFor("bench", endpoints));
  const caFile = path.join(dir, "bench-ca.crt"); // OpenBao and the bridge share the simulator's TLS port and CA
  writeFileSync(caFile, endpoints.caPem ?? "");
  const cluster = ClusterConfig.parse({
    name: "bench",
    kubeconfig,
    watchStallSeconds: stallSeconds,
    openbao: { address: endpoints.url, caFile, transitKey: "k8s-kek" },
    beacon: { healthUrl: `${endpoints.url}/beacon/healthz`, caFile },
  });
  const entry: Monitored = { target: { cluster, openBaoToken: endpoints.openBaoToken }, simulated: true, sources: {}, memo: newMemo() };
  let running = true;
  // The monitor's round loop (startMonitor's, without the database): rounds never overlap.
  const rounds = (async () => {
    while (running) {
      const started = Date.now();
      await pollOnce(entry).catch(() => undefined);
      await sleep(Math.max(0, POLL_SECONDS * 1000 - (Date.now() - started)));
    }
  })();
  return {
    server,
    entry,
    stop: async () => {
      running = false;
      await rounds;
      for (const w of entry.watches?.values() ?? []) w.stop();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cell = (h: Health | undefined) => h?.matrix?.cells.find((c) => c.node === NODE)?.status;
const allUp = (h: Health | undefined) => !!h && h.sources.every((s) => s.up && !s.throttled);
const kube = (h: Health | undefined) => h?.sources.find((s) => s.name === "kubeapiserver");

/** Samples what the page would show every 10 ms until the check holds; the time it first held. */
async function until(rig: Rig, check: (h: Health | undefined) => boolean, what: string, ms: number): Promise<number> {
  const end = performance.now() + ms;
  while (!check(rig.entry.health)) {
    if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}: ${rig.entry.health?.summary.line}`);
    await sleep(10);
  }
  return performance.now();
}

interface Fault {
  name: string;
  /** Injects the fault and waits until Faultline shows its effect; makes the change; returns the clear. */
  run: (rig: Rig) => Promise<(rig: Rig) => Promise<void> | void>;
  stallSeconds?: number;
}

const strike = (rig: Rig, on: boolean) => setScenario(rig.server.cluster, "kms-plugin-unavailable", on, { node: NODE });

const FAULTS: Fault[] = [
  ...([429, 503] as const).map((status) => ({
    name: `throttle ${status} (Retry-After ${RETRY_AFTER_SECONDS} s)`,
    run: async (rig: Rig) => {
      rig.server.faults.set({ kind: "throttle", retryAfterSeconds: RETRY_AFTER_SECONDS, status });
      rig.server.faults.resetWatches();
      await until(rig, (h) => kube(h)?.throttled !== undefined && kube(h)?.up === true, "kubeapiserver throttled (and up)", 20_000);
      strike(rig, true);
      await sleep(Math.random() * RETRY_AFTER_SECONDS * 1000); // clear at a random point of the wait
      return () => rig.server.faults.clear();
    },
  })),
  {
    name: `blackhole (stall bound ${BLACKHOLE_STALL_SECONDS} s)`,
    stallSeconds: BLACKHOLE_STALL_SECONDS,
    run: async (rig) => {
      rig.server.faults.set({ kind: "blackhole" });
      await until(rig, (h) => kube(h)?.up === false, "kubeapiserver down", 6 * BLACKHOLE_STALL_SECONDS * 1000);
      strike(rig, true);
      return () => rig.server.faults.clear();
    },
  },
  {
    name: `slow answers (${SLOW_MS / 1000} s) during a reconnect`,
    run: async (rig) => {
      rig.server.faults.set({ kind: "slow", delayMs: SLOW_MS });
      rig.server.faults.resetWatches();
      await sleep(500); // nothing to see by design: a slow answer is not an outage
      strike(rig, true);
      return () => rig.server.faults.clear();
    },
  },
  {
    name: "watch streams reset",
    run: async () => (rig: Rig) => {
      // The change is made as the streams drop: it reaches Faultline only through the resumed watch.
      rig.server.faults.resetWatches();
      strike(rig, true);
    },
  },
  {
    name: "410 on every resume",
    run: async (rig) => {
      const expired = [...rig.entry.watches!.values()].reduce((n, w) => n + w.state.expired, 0);
      rig.server.faults.set({ kind: "expire-on-resume" });
      rig.server.faults.resetWatches();
      await until(rig, () => [...rig.entry.watches!.values()].reduce((n, w) => n + w.state.expired, 0) > expired, "a 410", 20_000);
      await sleep(3000); // let the relist loop back off, as it would under a lasting fault
      strike(rig, true);
      return () => rig.server.faults.clear();
    },
  },
  {
    name: "API server restart, new resourceVersion history",
    run: async (rig) => {
      await rig.server.stop();
      await until(rig, (h) => kube(h)?.up === false, "kubeapiserver down", 30_000);
      strike(rig, true);
      rig.server.cluster.store.newHistory();
      return () => rig.server.start().then(() => undefined);
    },
  },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const rows: { fault: string; times: number[] }[] = [];
  for (const fault of FAULTS.filter((f) => !ONLY || ONLY.some((o) => f.name.startsWith(o)))) {
    const rig = await startRig(fault.stallSeconds ?? STALL_SECONDS);
    const times: number[] = [];
    try {
      await until(rig, (h) => allUp(h) && cell(h) === "healthy", "a healthy first read", 30_000);
      for (let i = 0; i < TRIES; i++) {
        const clear = await fault.run(rig);
        const cleared = performance.now();
        await clear(rig);
        const truth = await until(rig, (h) => allUp(h) && cell(h) === "error", "the truth after the fault", 120_000);
        times.push(truth - cleared);
        rig.server.faults.clear();
        strike(rig, false);
        await until(rig, (h) => allUp(h) && cell(h) === "healthy", "healthy again", 120_000);
        await sleep(SETTLE_MS); // each try starts from a steady state, not straight after the last reconnect
        process.stdout.write(`${fault.name}: try ${i + 1} ${Math.round(truth - cleared)} ms\n`);
      }
    } finally {
      await rig.stop();
    }
    rows.push({ fault: fault.name, times });
  }
  console.log(`\nbookmarks every 60 s (simulator default, as real API servers); watch stall bound ${STALL_SECONDS} s (Faultline default) except where named;`);
  console.log(
    `rounds every ${POLL_SECONDS} s (FAULTLINE_POLL_SECONDS default); watch backoff ${DEFAULT_WATCH_TUNING.backoffInitialMs} ms doubling to ${DEFAULT_WATCH_TUNING.backoffMaxMs / 1000} s; ${TRIES} tries each, ${SETTLE_MS / 1000} s apart`,
  );
  console.log("time from the fault clearing until the health shows every source up and the change made during the fault:\n");
  console.log(`| fault | tries | median | max |\n|---|---|---|---|`);
  for (const r of rows)
    console.log(`| ${r.fault} | ${r.times.length} | ${(median(r.times) / 1000).toFixed(2)} s | ${(Math.max(...r.times) / 1000).toFixed(2)} s |`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
