import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import type { DemoCluster } from "@/lib/demo/cluster/cluster";
import { resetCounters } from "@/lib/demo/cluster/counters";
import { demoConfig } from "@/lib/demo/prometheus";
import { queryInstant } from "@/lib/sources/prometheus/client";
import { HISTORY_SECONDS } from "@/lib/sources/prometheus/kms-metrics";
import { startPrometheus, type RunningPrometheus } from "@/lib/sources/prometheus/process";
import { startDemoMonitor } from "@/test/demo-monitor";
import { evalClock, type EvalMonitor } from "./eval";

// The evaluation's monitor for the cases whose only evidence is in metrics: the demo cluster and the real monitor as
// for the other parts, plus Debian's Prometheus scraping the cluster's kube-apiserver and KMS plugin /metrics, which
// the monitor reads through Faultline's own Prometheus source (lib/sources/prometheus), as in production.
//
// The evaluation runs on a simulated clock; Prometheus scrapes on the wall clock. They are reconciled by letting
// Prometheus record the simulated time: the cluster stamps every sample with its clock's time (DemoCluster
// stampMetrics), and a round's 90 s pass in steps of one scrape interval (30 s), each waited for until Prometheus holds
// a scrape of every node and plugin stamped with it. So Prometheus holds what it would have scraped every 30 s over
// the simulated minutes, the counters grow at the world's rates, and Faultline's unchanged PromQL, asked at the
// simulated now, reads rates, increases and key_id switches over simulated time; a case takes seconds, not minutes.
// Two things differ from a Prometheus scraping unstamped samples, and are set to match it: it writes no staleness
// markers for stamped samples, so a series no longer scraped is dropped after a little more than one step (the lookback
// delta) rather than at the next scrape; and its own series (up, scrape_*) carry the wall clock, so the simulated
// clock runs behind it, with samples accepted out of order.

/** How often Prometheus scrapes, on the wall clock: the wait for each simulated step. */
const SCRAPE_EVERY = "250ms";
/** Simulated time between two scrapes: a scrape interval real Prometheus servers use (5-30 s). */
const STEP_MS = 30_000;
/** Stands in for staleness markers (above): a little longer than one step, so every scraped series is always in view. */
const LOOKBACK = "35s";
/** Between cases, longer than the longest window Faultline's PromQL reads (15 min): no window holds two cases. */
const SEPARATION_MS = (HISTORY_SECONDS + 60) * 1000;
/**
 * Prometheus refuses samples stamped more than a few minutes ahead of its wall clock, so the simulated clock starts
 * this far behind it (room for about a hundred cases of some 25 simulated minutes each), and samples that far behind
 * its own newest are accepted.
 */
const START_BEHIND_MS = 2 * 24 * 3600_000;
const OUT_OF_ORDER_WINDOW = "3d";
/** Every node and plugin a world may have (world.ts: at most 5 nodes of 3 plugins); those a world lacks answer 404. */
const NODES = Array.from({ length: 5 }, (_, i) => `master-${i}`);
const KEY_IDS = ["1", "2", "3"];
/** A scrape of a step normally lands within one scrape interval; this is for a machine under heavy load. */
const SCRAPE_WAIT_MS = 60_000;

/** The demo cluster and monitor with Prometheus, on a clock of their own, for evaluateCases on the metrics parts. */
export async function startMetricsEvalMonitor(): Promise<EvalMonitor> {
  const clock = evalClock(Date.now() - START_BEHIND_MS);
  const sim = await startDemoMonitor({ now: clock.now, stampMetrics: true });
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-eval-prometheus-"));
  let prometheus: RunningPrometheus;
  try {
    prometheus = await startPrometheus({
      dataDir: dir,
      config: await scrapeConfig(sim.server.endpoints(), dir),
      flags: [`--query.lookback-delta=${LOOKBACK}`],
    });
  } catch (error) {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  sim.entry.target = { ...sim.entry.target, cluster: { ...sim.entry.target.cluster, prometheus: { url: prometheus.url } } };
  const stop = async () => {
    await prometheus.stop();
    await rm(dir, { recursive: true, force: true });
    await sim.stop();
  };
  const scraped = () => scrapedAt(prometheus.url, sim.server.cluster, clock.now());
  try {
    await scraped();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sim: { ...sim, stop },
    clock,
    metrics: {
      advance: async (ms) => {
        for (let left = ms; left > 0; left -= STEP_MS) {
          clock.advance(Math.min(left, STEP_MS));
          await scraped();
        }
      },
      // A case's cluster starts with fresh counters, and no window Faultline reads reaches back to the case before it.
      separate: async () => {
        resetCounters(sim.server.cluster.model);
        clock.advance(SEPARATION_MS);
        await scraped();
      },
      // A case's world is a state that holds, not one that has just begun: one scrape of it before the first round reads.
      changed: async () => {
        clock.advance(STEP_MS);
        await scraped();
      },
    },
  };
}

/** The demo's own scrape config (lib/demo/prometheus.ts), every 250 ms, keeping samples stamped behind the wall clock. */
async function scrapeConfig(endpoints: { url: string; readToken: string; caPem?: string }, dir: string): Promise<string> {
  const tokenFile = path.join(dir, "sim-token");
  const caFile = endpoints.caPem ? path.join(dir, "sim-ca.crt") : undefined;
  await writeFile(tokenFile, endpoints.readToken, { mode: 0o600 });
  if (caFile) await writeFile(caFile, endpoints.caPem!, { mode: 0o644 });
  const targets = { nodes: NODES, plugins: NODES.flatMap((node) => KEY_IDS.map((keyID) => ({ node, keyID }))) };
  const config = parse(demoConfig(new URL(endpoints.url), tokenFile, { targets, scrapeIntervalSeconds: 1 }, caFile)) as {
    global: Record<string, string>;
    scrape_configs: Record<string, unknown>[];
    storage?: unknown;
  };
  config.global.scrape_interval = SCRAPE_EVERY;
  for (const job of config.scrape_configs) Object.assign(job, { scrape_interval: SCRAPE_EVERY, scrape_timeout: SCRAPE_EVERY });
  config.storage = { tsdb: { out_of_order_time_window: OUT_OF_ORDER_WINDOW } };
  return stringify(config);
}

/** Waits until Prometheus holds a scrape stamped `at` of every kube-apiserver and KMS plugin the cluster has now. */
async function scrapedAt(url: string, cluster: DemoCluster, at: Date): Promise<void> {
  const nodes = cluster.model.nodes;
  const want = nodes.length + nodes.reduce((n, node) => n + node.plugins.length, 0);
  // One gauge every scrape of each kind of endpoint carries; a scrape's samples are stored together.
  const promql = `count(count by (instance) (timestamp({__name__=~"openbao_kms_key_version|apiserver_envelope_encryption_dek_source_cache_size"}) > ${(at.getTime() - 1) / 1000}))`;
  const deadline = Date.now() + SCRAPE_WAIT_MS;
  for (;;) {
    const answer = await queryInstant(url, promql, { time: at });
    const got = answer.resultType === "vector" ? (answer.samples[0]?.value ?? 0) : 0;
    if (got >= want) return;
    if (Date.now() > deadline) {
      throw new Error(`Prometheus holds a scrape at the simulated ${at.toISOString()} of ${got} of ${want} endpoints after ${SCRAPE_WAIT_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
