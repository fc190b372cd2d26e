import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ClusterConfig } from "@/lib/clusters/config";
import { pollOnce, type Monitored } from "@/lib/monitor/monitor";
import { newMemo } from "@/lib/store/persist";
import type { SourceState } from "@/lib/sources/state";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { kubeconfigFor } from "@/lib/demo/cluster/kubeconfig";
import { DemoServer } from "@/lib/demo/cluster/server";
import { WAIT_SLACK } from "./wait";

// A simulated cluster on loopback and a monitor entry that reads it through an ordinary kubeconfig
// with the real client: what the tests of the monitor and of the incident suspects start from.

export interface DemoMonitor {
  server: DemoServer;
  entry: Monitored;
  stop: () => Promise<void>;
}

/**
 * `now` drives the simulated cluster's clock (its reporters' timestamps); tests that let time pass pass the same clock to
 * pollOnce. `stampMetrics`: its metrics samples carry that clock's time (DemoClusterOptions).
 */
export async function startDemoMonitor(options: { now?: () => Date; nodes?: number; stampMetrics?: boolean } = {}): Promise<DemoMonitor> {
  const server = new DemoServer({
    cluster: new DemoCluster({ nodes: options.nodes ?? 3, intervalMs: 60_000, now: options.now, stampMetrics: options.stampMetrics }),
  });
  const endpoints = await server.start();
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-demo-monitor-"));
  const kubeconfig = path.join(dir, "demo.kubeconfig");
  writeFileSync(kubeconfig, kubeconfigFor("demo", endpoints));
  // OpenBao and the bridge live on the simulator's TLS port too: they are trusted through its CA file.
  const caFile = path.join(dir, "demo-ca.crt");
  writeFileSync(caFile, endpoints.caPem ?? "");
  const entry: Monitored = {
    target: {
      cluster: ClusterConfig.parse({
        name: "demo",
        kubeconfig,
        intervalSeconds: 30,
        watchStallSeconds: 30,
        openbao: { address: endpoints.url, caFile, transitKey: "k8s-kek" },
        beacon: { healthUrl: `${endpoints.url}/beacon/healthz`, caFile },
      }),
      openBaoToken: endpoints.openBaoToken,
    },
    simulated: true,
    sources: {},
    memo: newMemo(),
  };
  servers.set(entry, server);
  return {
    server,
    entry,
    stop: async () => {
      for (const w of entry.watches?.values() ?? []) w.stop();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Health = Awaited<ReturnType<typeof pollOnce>>;

/** The simulated API server behind each monitor entry this file started. */
const servers = new WeakMap<Monitored, DemoServer>();

/**
 * Waits until every open watch of the entry has read all that the simulated API server held when called: the
 * server sends a bookmark on each, and a watch that has read it has read every change before it. On a loaded
 * machine a change can take longer than any fixed wait to arrive; this does not guess. Gives up quietly after
 * `ms` (a stalled or reconnecting watch gets no bookmark), leaving the polls below to judge.
 */
export async function watchesCaughtUp(entry: Monitored, ms = 3000): Promise<boolean> {
  const server = servers.get(entry);
  // A stalled server sends nothing, bookmarks included: there is nothing to wait for.
  if (!server?.running || !entry.watches || server.watchesStalled || server.faults.silent || server.faults.current) return false;
  const target = Number(server.bookmarkNow());
  const end = Date.now() + ms;
  for (;;) {
    const behind = [...entry.watches.values()].filter((w) => w.state.up && !(Number(w.state.resourceVersion ?? "0") >= target));
    if (behind.length === 0) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Probes down for a failure wait out a backoff before they are asked again; a settled round asks them now. Throttled ones keep their Retry-After. */
function askFailedProbesNow(entry: Monitored): void {
  for (const [name, source] of Object.entries(entry.sources) as [keyof Monitored["sources"], SourceState | undefined][]) {
    if (source && !source.up && !source.throttled && source.retryAt) entry.sources = { ...entry.sources, [name]: { ...source, retryAt: undefined } };
  }
}

/** Rounds until the health shows what a change should produce (watches deliver it within milliseconds). */
export async function pollUntil(entry: Monitored, check: (h: Health) => boolean, what: string, ms = 5000 * WAIT_SLACK): Promise<Health> {
  const end = Date.now() + ms;
  for (;;) {
    const health = await pollOnce(entry);
    if (check(health)) return health;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${health.summary.line}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One round once the watches have caught up with the API server (watchesCaughtUp): they hold every change made
 * before, and the round reads every probe afresh (one that failed before is asked now, not after its backoff, which
 * runs on the wall clock), so it shows the change whatever the machine's load. When the watches cannot catch up (a
 * stalled or faulted server), rounds until two in a row, 100 ms apart, show the same signal states.
 */
export async function settledPoll(entry: Monitored, ms = 5000, now?: () => Date): Promise<Health> {
  if (await watchesCaughtUp(entry)) {
    askFailedProbesNow(entry);
    return pollOnce(entry, now);
  }
  const key = (h: Health) => JSON.stringify(h.signals.map((s) => [s.id, s.subject, s.state, s.detail]));
  let last = await pollOnce(entry, now);
  const end = Date.now() + ms;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await pollOnce(entry, now);
    if (key(next) === key(last) || Date.now() > end) return next;
    last = next;
  }
}
