// npm run bench:fleet [-- --clusters 100 --minutes 10 --out F --before F]: one Faultline watching a fleet of simulated
// clusters of 3 nodes through a clusters file, as an SRE team runs it and loads it (issue 29). In one run it prints:
//   - the server's resident memory every 15 s for --minutes while one fleet page's stream is open, with its slope over
//     the last half (MB/min, least squares, ± one standard error), V8 heap used, and the CPU seconds the server used;
//   - /fleet's HTML (raw, gzipped) and LCP in Debian's Chromium, against /health's LCP of a Faultline watching one cluster;
//   - the time from a failure injected into a random cluster (the simulator's control API) to that cluster's first row
//     on the fleet view, by its events stream and by GET /api/v1/fleet;
//   - 200 concurrent clients (wrk) for 20 s each on a cluster's health summary (every cluster in turn), the fleet and
//     the incident list: requests/s, p50, p99, max, requests over 1 s; then the same 200 as dashboards, each asking
//     once every --poll-ms (1000), timed from when each request was due;
//   - 500 open SSE streams (half the fleet's, half a cluster's summary): the time for a change to reach all of them;
// (--wrk-threads, 1 by default: see runWrk), then a JSON summary (--out writes it too), and with --before the ratio of each figure to an earlier run's.
// The simulated clusters run in a process of their own (`npm run demo -- --clusters N --clusters-file F`), PostgreSQL is an
// embedded one of this script's, and the server is the built one (`npm start`'s scripts/start.ts; it builds first when
// the sources changed). --server-arg passes a switch to the server's node (--cpu-prof, --heapsnapshot-signal=SIGUSR2);
// --server-log F appends the servers' output to F; --memory-only stops after the memory and CPU figures (with
// --server-arg --cpu-prof, to see where a round's time goes), and --hold S then keeps the fleet up S seconds.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { Agent, fetch } from "undici";
import { parse, stringify } from "yaml";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { worstOf, type FleetRow } from "@/lib/fleet/fleet-row";
import { freePort } from "@/lib/free-port";
import { applyHealthPush } from "@/lib/live/health-push";
import type { HealthInView } from "@/lib/signals/health-view";
import { compareFigures, cpuSecondsOf, percentile } from "./bench-fleet-figures";
import { firstRowAt, openStream, rowStateAt, runPolling, runWrk, until, versionAt, within, type Stream } from "./bench-fleet-load";
import { heapFigures, launchChromium, measureHtml, measureLcp, residentBytes } from "./bench-health-server";
import { slope, slopeError } from "./bench-health-memory";
import { seedHistory } from "./bench-incidents-seed";

const { values: opts } = parseArgs({
  options: {
    clusters: { type: "string", default: "100" },
    minutes: { type: "string", default: "10" },
    "poll-seconds": { type: "string", default: "2" },
    interval: { type: "string", default: "30s" },
    clients: { type: "string", default: "200" },
    "wrk-threads": { type: "string", default: "1" },
    "poll-ms": { type: "string", default: "1000" },
    seconds: { type: "string", default: "20" },
    streams: { type: "string", default: "500" },
    trials: { type: "string", default: "3" },
    seed: { type: "string", default: "29" },
    out: { type: "string" },
    before: { type: "string" },
    "server-arg": { type: "string", multiple: true },
    "server-log": { type: "string" },
    "memory-only": { type: "boolean", default: false },
    hold: { type: "string", default: "0" },
  },
});
const whole = (name: keyof typeof opts, min: number) => {
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}`);
  return n;
};
const CLUSTERS = whole("clusters", 2);
const MINUTES = Number(opts.minutes);
const CLIENTS = whole("clients", 1);
const WRK_THREADS = whole("wrk-threads", 1);
const HOLD_SECONDS = whole("hold", 0);
const POLL_MS = whole("poll-ms", 1);
const SECONDS = whole("seconds", 1);
const STREAMS = whole("streams", 2);
const TRIALS = whole("trials", 1);
const SAMPLE_SECONDS = 15;
const LCP_SAMPLES = 5;
const FAILURE = "kms-plugin-unavailable";
/** How long a failure may take to show before it counts as not shown. */
const TRIAL_MS = 60_000;
const NAME = "fleet";
const MB = 1024 * 1024;
const root = process.cwd();
const log = (line: string) => console.log(`[bench-fleet] ${line}`);
const round = (n: number, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);
const median = (xs: number[]) => percentile(xs, 0.5);

/** mulberry32: the same clusters are picked for the same --seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const children: ChildProcess[] = [];
let database: { stop: () => Promise<void> } | undefined;
let workDir: string | undefined;
/** Ends a process group this script started and waits for it. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid!, "SIGTERM");
  const late = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 20_000);
  await gone;
  clearTimeout(late);
}

/** Starts a process in a group of its own; resolves once its output matches `ready`. */
function startChild(command: string[], env: Record<string, string>, ready: RegExp, name: string, logFile?: string): Promise<ChildProcess> {
  const child = spawn(command[0], command.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  const log = logFile ? createWriteStream(logFile, { flags: "a" }) : undefined;
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      log?.write(d);
      output = (output + d.toString()).slice(-8000);
      if (ready.test(output)) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${output.slice(-3000)}`)));
  });
}

function startServer(o: { port: number; databaseUrl: string; dataDir: string; clustersFile: string; nodeArgs?: string[] }) {
  return startChild(
    [process.execPath, ...(o.nodeArgs ?? []), "--import", "tsx", "scripts/start.ts"],
    {
      PORT: String(o.port),
      HOST: "127.0.0.1",
      DATABASE_URL: o.databaseUrl,
      FAULTLINE_DATA_DIR: o.dataDir,
      FAULTLINE_CLUSTERS_FILE: o.clustersFile,
      FAULTLINE_POLL_SECONDS: opts["poll-seconds"]!,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    /\[faultline\] ready on http/,
    "the server",
    opts["server-log"],
  );
}

/** The simulator's control API (lib/demo/cluster/server.ts), as `npm run demo -- inject` calls it. */
async function setScenario(demoDir: string, cluster: string, on: boolean): Promise<void> {
  const info = JSON.parse(readFileSync(path.join(demoDir, `${cluster}.json`), "utf8")) as { url: string; adminToken: string; caFile: string };
  const dispatcher = new Agent({ connect: { ca: readFileSync(info.caFile, "utf8") } });
  const response = await fetch(`${info.url}/demo/v1/scenarios/${FAILURE}?node=master-1`, {
    method: on ? "POST" : "DELETE",
    headers: { Authorization: `Bearer ${info.adminToken}` },
    dispatcher,
  });
  if (!response.ok) throw new Error(`${on ? "inject" : "clear"} ${FAILURE} on ${cluster}: HTTP ${response.status} ${await response.text()}`);
  await dispatcher.close();
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Until the server answers readiness (which asks PostgreSQL) within half a second again: a load leaves requests
 * queued behind it, and the next measurement starts once they are gone. Returns the seconds it took.
 */
async function settle(base: string): Promise<number> {
  const t0 = Date.now();
  await within(
    180_000,
    async () => {
      const t = performance.now();
      const ok = await fetch(`${base}/api/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.ok,
        () => false,
      );
      return ok && performance.now() - t < 500 ? true : undefined;
    },
    1_000,
  );
  return round((Date.now() - t0) / 1000)!;
}

/** The server's event-loop delay since its last scrape, and its full collections so far, from /metrics. */
async function loopFigures(base: string): Promise<{ delayMaxMs: number | null; delayP99Ms: number | null; majorGcs: number; majorGcMs: number }> {
  const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
  const read = (pattern: string) => {
    const line = new RegExp(`^${pattern} (\\S+)$`, "m").exec(text);
    return line ? Number(line[1]) : NaN;
  };
  const ms = (seconds: number) => (Number.isFinite(seconds) ? Math.round(seconds * 1000) : null);
  return {
    delayMaxMs: ms(read("nodejs_eventloop_lag_max_seconds")),
    delayP99Ms: ms(read("nodejs_eventloop_lag_p99_seconds")),
    majorGcs: read('nodejs_gc_duration_seconds_count\\{kind="major"\\}') || 0,
    majorGcMs: Math.round((read('nodejs_gc_duration_seconds_sum\\{kind="major"\\}') || 0) * 1000),
  };
}

const fleetRows = (base: string) => getJson<{ rows: FleetRow[] }>(`${base}/api/v1/fleet`).then((b) => b.rows);

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const load = [loadavg()[0]];
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-fleet-"));
  workDir = dir;
  await chmod(dir, 0o711); // as root, PostgreSQL runs as "postgres" and must reach its folder
  const demoDir = path.join(dir, "demo");
  const clustersFile = path.join(dir, "clusters.yaml");
  const rng = random(Number(opts.seed));
  const names = Array.from({ length: CLUSTERS }, (_, i) => `${NAME}-${String(i + 1).padStart(String(CLUSTERS).length, "0")}`);
  const pick = () => names[Math.floor(rng() * names.length)];

  log(`PostgreSQL, then ${CLUSTERS} simulated clusters of 3 nodes (reporters every ${opts.interval})`);
  const db = await startEmbeddedPostgres(path.join(dir, "db"), () => undefined);
  database = db;
  await startChild(
    [
      process.execPath,
      "--import",
      "tsx",
      "scripts/demo.ts",
      ...["--clusters", String(CLUSTERS), "--cluster", NAME, "--interval", opts.interval!, "--dir", demoDir],
      ...["--clusters-file", clustersFile, "--label", "env=bench"],
    ],
    {},
    /clusters file for Faultline: /,
    "npm run demo",
  );

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  const server = await startServer({ port, databaseUrl: db.url, dataDir: path.join(dir, "data"), clustersFile, nodeArgs: opts["server-arg"] });
  const pid = server.pid!;
  await until("every cluster read once", async () => ((await fleetRows(base)).every((r) => r.readAt !== null) ? true : undefined), 600_000, 1_000);
  const readyS = (Date.now() - t0) / 1000;
  log(`server ${pid} ready, every cluster read, after ${readyS.toFixed(0)} s`);

  // The issue's team had 15 incidents in the database: of clusters this Faultline does not watch, so they stay open.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await seedHistory(client, 15, 150, () => undefined);

  const http = new Agent({ connections: null, pipelining: 1 });
  // One fleet page open all along, as on a team's screen: its stream is what the fleet view's publisher serves.
  const screen = openStream(`${base}/api/v1/fleet/events`, http);
  await screen.opened;

  // Memory and CPU while the monitors read the fleet.
  log(`resident memory every ${SAMPLE_SECONDS} s for ${MINUTES} min`);
  const samples: { minutes: number; rssMB: number; heapUsedMB: number | null; cpuS: number }[] = [];
  const cpuAt = () => cpuSecondsOf(readFileSync(`/proc/${pid}/stat`, "utf8"));
  const cpu0 = cpuAt();
  const m0 = Date.now();
  for (let k = 1; ; k++) {
    const sample = {
      minutes: round((Date.now() - m0) / 60_000, 2)!,
      rssMB: round(residentBytes(pid) / MB)!,
      heapUsedMB: null as number | null,
      cpuS: round(cpuAt() - cpu0, 2)!,
    };
    // The heap from the server's /metrics, which may answer slowly under load: after the readings above.
    const heap = await Promise.race([heapFigures(base), new Promise<undefined>((r) => setTimeout(r, 5_000))]);
    sample.heapUsedMB = heap?.used === undefined ? null : round(heap.used / MB);
    samples.push(sample);
    log(
      `${sample.minutes.toFixed(2).padStart(6)} min  RSS ${sample.rssMB.toFixed(0).padStart(4)} MB  heap used ${sample.heapUsedMB ?? "?"} MB  CPU ${sample.cpuS} s`,
    );
    const next = m0 + k * SAMPLE_SECONDS * 1000;
    if (next > m0 + MINUTES * 60_000 + 1_000) break;
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
  const windowMinutes = (Date.now() - m0) / 60_000;
  const half = samples.filter((s) => s.minutes >= samples[samples.length - 1].minutes / 2).map((s) => ({ x: s.minutes, y: s.rssMB }));
  const heapHalf = samples.filter((s) => s.minutes >= samples[samples.length - 1].minutes / 2 && s.heapUsedMB !== null);
  const memory = {
    finalRssMB: samples[samples.length - 1].rssMB,
    maxRssMB: Math.max(...samples.map((s) => s.rssMB)),
    slopeLastHalfMBPerMin: round(slope(half), 2),
    slopeStdErrMBPerMin: round(slopeError(half), 2),
    heapSlopeLastHalfMBPerMin: round(slope(heapHalf.map((s) => ({ x: s.minutes, y: s.heapUsedMB! }))), 2),
  };
  const cpuWindow = samples[samples.length - 1].cpuS;
  const cpu = { secondsInWindow: cpuWindow, perMinute: round(cpuWindow / windowMinutes, 2), totalSinceStart: round(cpuAt(), 1) };
  log(
    `RSS ${memory.finalRssMB} MB (max ${memory.maxRssMB}); slope over the last half ${memory.slopeLastHalfMBPerMin} ± ${memory.slopeStdErrMBPerMin} MB/min; ` +
      `CPU ${cpu.secondsInWindow} s in ${windowMinutes.toFixed(1)} min (${cpu.perMinute} s/min)`,
  );

  if (opts["memory-only"]) {
    console.log(JSON.stringify({ clusters: CLUSTERS, memory, cpu, samples }, null, 2));
    if (HOLD_SECONDS > 0) {
      log(`the server stays on ${base} for ${HOLD_SECONDS} s, to look at by hand (Ctrl-C stops it all)`);
      await new Promise((r) => setTimeout(r, HOLD_SECONDS * 1000));
    }
    screen.close();
    await client.end();
    await Promise.all(children.map(stopGroup));
    await db.stop();
    await rm(dir, { recursive: true, force: true });
    return;
  }

  // The page.
  const browser = await launchChromium();
  const lcpOf = async (url: string) => {
    await measureLcp(browser, url); // warm-up load, not counted
    const xs: number[] = [];
    for (let i = 0; i < LCP_SAMPLES; i++) xs.push(await measureLcp(browser, url));
    return xs;
  };
  const fleetHtml = await measureHtml(`${base}/fleet`);
  const fleetLcp = await lcpOf(`${base}/fleet`);
  const clusterLcp = await lcpOf(`${base}/clusters/${names[0]}`);
  log(
    `/fleet HTML ${(fleetHtml.raw / 1024).toFixed(1)} KB raw, ${(fleetHtml.gzip / 1024).toFixed(1)} KB gzipped; LCP median ${median(fleetLcp).toFixed(0)} ms (${fleetLcp.map((x) => x.toFixed(0)).join(", ")})`,
  );
  log(`/clusters/${names[0]} LCP median ${median(clusterLcp).toFixed(0)} ms`);

  // A failure in a random cluster, to its first row.
  await settle(base);
  // A row not first within a minute counts as a minute (and is said).
  const trials: { cluster: string; streamMs: number; apiMs: number }[] = [];
  for (let i = 0; i < TRIALS; i++) {
    const cluster = pick();
    const since = performance.now();
    await setScenario(demoDir, cluster, true);
    const apiAt = await within(TRIAL_MS, async () => ((await fleetRows(base).catch(() => []))[0]?.name === cluster ? performance.now() : undefined), 100);
    const streamAt = await within(TRIAL_MS, () => firstRowAt(screen, cluster, since));
    trials.push({ cluster, streamMs: Math.round((streamAt ?? since + TRIAL_MS) - since), apiMs: Math.round((apiAt ?? since + TRIAL_MS) - since) });
    log(
      `failure in ${cluster}: first on the fleet stream ${streamAt ? `after ${trials[i].streamMs} ms` : "NOT within a minute"}, ` +
        `by GET /api/v1/fleet ${apiAt ? `after ${trials[i].apiMs} ms` : "NOT within a minute"}`,
    );
    const cleared = performance.now();
    await setScenario(demoDir, cluster, false);
    await within(180_000, async () => ((await fleetRows(base).catch(() => [])).find((r) => r.name === cluster)?.state === "ok" ? true : undefined), 1_000);
    if (rowStateAt(screen, cluster, "ok", cleared) === undefined) log(`${cluster}: its stream did not show it ok again`);
  }
  const failure = {
    trials,
    streamMaxMs: Math.max(...trials.map((t) => t.streamMs)),
    apiMaxMs: Math.max(...trials.map((t) => t.apiMs)),
  };

  // A team's dashboards polling.
  const loads: Record<string, Awaited<ReturnType<typeof runWrk>> & { peakRssMB: number; settleS: number }> = {};
  const targets: [string, string[]][] = [
    ["summary", names.map((n) => `/api/v1/clusters/${n}/health?view=summary`)],
    ["fleet", ["/api/v1/fleet"]],
    ["incidents", ["/api/v1/incidents"]],
  ];
  for (const [name, paths] of targets) {
    let peak = residentBytes(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 1_000);
    // The server's event-loop delay and full collections during the load: prom-client's delay histogram restarts at
    // every scrape, so the scrape after the load holds the load's.
    const before = await loopFigures(base);
    const figures = await runWrk({ base, paths, clients: CLIENTS, seconds: SECONDS, dir, threads: WRK_THREADS }).finally(() => clearInterval(sampler));
    const after = await loopFigures(base);
    const loop = {
      loopDelayMaxMs: after.delayMaxMs,
      loopDelayP99Ms: after.delayP99Ms,
      majorGcs: after.majorGcs - before.majorGcs,
      majorGcMs: after.majorGcMs - before.majorGcMs,
    };
    const settleS = await settle(base);
    loads[name] = { ...figures, peakRssMB: round(peak / MB)!, settleS, ...loop };
    log(
      `${CLIENTS} clients on ${name} for ${SECONDS} s: ${figures.perSecond.toFixed(0)} requests/s, p50 ${figures.p50Ms.toFixed(0)} ms, p99 ${figures.p99Ms.toFixed(0)} ms, ` +
        `max ${figures.maxMs.toFixed(0)} ms, ${figures.over1s} over 1 s, ${figures.errors} errors; RSS peak ${loads[name].peakRssMB} MB; ` +
        `event loop delay p99 ${loop.loopDelayP99Ms} ms, max ${loop.loopDelayMaxMs} ms; ${loop.majorGcs} full collections (${loop.majorGcMs} ms); ` +
        `answering again within 0.5 s ${settleS} s later`,
    );
  }

  // The same clients as dashboards poll: each one request every --poll-ms, whatever the server's pace.
  const polling: Record<string, Awaited<ReturnType<typeof runPolling>>> = {};
  for (const [name, paths] of targets) {
    const figures = await runPolling({ base, paths, clients: CLIENTS, intervalMs: POLL_MS, seconds: SECONDS });
    await settle(base);
    polling[name] = figures;
    log(
      `${CLIENTS} dashboards polling ${name} every ${POLL_MS} ms for ${SECONDS} s: ${figures.perSecond.toFixed(0)} requests/s, ` +
        `p50 ${figures.p50Ms.toFixed(0)} ms, p99 ${figures.p99Ms.toFixed(0)} ms, max ${figures.maxMs.toFixed(0)} ms, ${figures.over1s} over 1 s, ${figures.errors} errors`,
    );
  }

  // Open streams: half follow the fleet, half one cluster's summary; a change in that cluster must reach all.
  const target = pick();
  log(`${STREAMS} open streams (${STREAMS / 2} of the fleet, ${STREAMS / 2} of ${target}'s summary)`);
  const fleetStreams: Stream[] = [];
  const clusterStreams: Stream[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const stream = i % 2 === 0 ? openStream(`${base}/api/v1/fleet/events`, http) : openStream(`${base}/api/v1/clusters/${target}/events?view=summary`, http);
    (i % 2 === 0 ? fleetStreams : clusterStreams).push(stream);
  }
  const openedMs = performance.now();
  // A stream that does not open, or (the fleet's) sends no rows, within two minutes misses every change.
  const opened = await Promise.race([
    Promise.allSettled([...fleetStreams, ...clusterStreams].map((s) => s.opened)),
    new Promise((r) => setTimeout(r, 120_000)),
  ]);
  await within(120_000, () => (fleetStreams.every((s) => s.events.some((e) => e.event === "fleet")) ? true : undefined), 200);
  const openS = round((performance.now() - openedMs) / 1000);
  log(
    `${opened ? "every stream answered" : "NOT every stream answered within 2 min"}; ` +
      `${fleetStreams.filter((s) => s.events.some((e) => e.event === "fleet")).length} of ${fleetStreams.length} fleet streams have their rows, after ${openS} s`,
  );
  const fromChange: number[] = [];
  const spread: number[] = [];
  let missed = 0;
  const reference = clusterStreams[0];
  for (const on of [true, false, true, false]) {
    type View = HealthInView & { version: number };
    const held = await getJson<View>(`${base}/api/v1/clusters/${target}/health?view=summary`);
    const want = on ? "critical" : "ok";
    const since = performance.now();
    await setScenario(demoDir, target, on);
    // The version whose push turns the view a page holds to the state wanted.
    const version = await within(TRIAL_MS, () => {
      let view: View | undefined = held;
      for (const e of reference.events) {
        if (e.event !== "health" || e.at <= since) continue;
        const push = JSON.parse(e.data) as Parameters<typeof applyHealthPush>[1];
        if (push.version <= held.version) continue;
        view = applyHealthPush<HealthInView>(view, push);
        if (!view) throw new Error(`a push did not follow the version held (${push.base})`);
        if (worstOf(view) === want) return push.version;
      }
      return undefined;
    });
    // A stream the change has not reached within a minute counts as missed.
    const arrivalsOf = () => [
      ...fleetStreams.map((s) => rowStateAt(s, target, want, since)),
      ...clusterStreams.map((s) => (version === undefined ? undefined : versionAt(s, version, since))),
    ];
    if (version !== undefined) await within(TRIAL_MS, () => (arrivalsOf().every((t) => t !== undefined) ? true : undefined), 100);
    const all = arrivalsOf();
    const arrivals = all.filter((t): t is number => t !== undefined);
    missed += all.length - arrivals.length;
    const first = Math.min(...arrivals);
    fromChange.push(...arrivals.map((t) => t - since));
    spread.push(...arrivals.map((t) => t - first));
    log(
      `${on ? "inject" : "clear"}: on ${arrivals.length} of ${all.length} streams ` +
        (arrivals.length === 0
          ? "(none)"
          : `${(Math.max(...arrivals) - since).toFixed(0)} ms after the change; ${(Math.max(...arrivals) - first).toFixed(0)} ms between the first stream and the last`),
    );
    // The cluster is back as it was before the next change.
    if (!on)
      await within(TRIAL_MS, async () => ((await fleetRows(base).catch(() => [])).find((r) => r.name === target)?.state === "ok" ? true : undefined), 500);
  }
  for (const s of [...fleetStreams, ...clusterStreams, screen]) s.close();
  const ms = (n: number) => (Number.isFinite(n) ? Math.round(n) : null);
  const sse = {
    streams: STREAMS,
    changes: 4,
    openS,
    missed,
    fromChangeP50Ms: ms(percentile(fromChange, 0.5)),
    fromChangeP99Ms: ms(percentile(fromChange, 0.99)),
    fromChangeMaxMs: ms(Math.max(...fromChange)),
    firstToStreamP99Ms: ms(percentile(spread, 0.99)),
    firstToStreamMaxMs: ms(Math.max(...spread)),
  };
  const finalRssMB = round(residentBytes(pid) / MB);
  load.push(loadavg()[0]);
  await stopGroup(server);

  // One cluster, as one team with one cluster runs Faultline: its /health.
  log(`a Faultline watching ${names[0]} alone, for /health`);
  const one = (parse(readFileSync(clustersFile, "utf8")) as { clusters: { name: string }[] }).clusters.filter((c) => c.name === names[0]);
  const oneFile = path.join(dir, "one-cluster.yaml");
  writeFileSync(oneFile, stringify({ clusters: one }));
  await client.query(`CREATE DATABASE one_cluster`);
  const oneUrl = db.url.replace(/\/faultline$/, "/one_cluster");
  const onePort = await freePort();
  const single = await startServer({ port: onePort, databaseUrl: oneUrl, dataDir: path.join(dir, "data-one"), clustersFile: oneFile });
  await until(
    `${names[0]} read`,
    async () => ((await fetch(`http://127.0.0.1:${onePort}/api/v1/clusters/${names[0]}/health?view=summary`)).status === 200 ? true : undefined),
    300_000,
    500,
  );
  const healthHtml = await measureHtml(`http://127.0.0.1:${onePort}/health`);
  const healthLcp = await lcpOf(`http://127.0.0.1:${onePort}/health`);
  log(`one cluster: /health HTML ${(healthHtml.raw / 1024).toFixed(1)} KB, LCP median ${median(healthLcp).toFixed(0)} ms`);
  await stopGroup(single);
  await browser.close();
  await client.end();

  const summary = {
    clusters: CLUSTERS,
    nodesPerCluster: 3,
    pollSeconds: Number(opts["poll-seconds"]),
    reporterInterval: opts.interval,
    startedAt,
    loadAverage1m: load.map((l) => round(l, 2)),
    readyAfterS: round(readyS, 0),
    memory,
    cpu,
    page: {
      fleetHtmlKB: round(fleetHtml.raw / 1024),
      fleetHtmlGzipKB: round(fleetHtml.gzip / 1024),
      fleetLcpMs: Math.round(median(fleetLcp)),
      clusterPageLcpMs: Math.round(median(clusterLcp)),
      oneClusterHealthHtmlKB: round(healthHtml.raw / 1024),
      oneClusterHealthLcpMs: Math.round(median(healthLcp)),
      fleetToOneClusterLcpRatio: round(median(fleetLcp) / median(healthLcp), 2),
    },
    failure,
    load: Object.fromEntries(
      Object.entries(loads).map(([k, l]) => [
        k,
        { ...l, perSecond: Math.round(l.perSecond), p50Ms: round(l.p50Ms), p99Ms: round(l.p99Ms), maxMs: round(l.maxMs) },
      ]),
    ),
    polling: Object.fromEntries(
      Object.entries(polling).map(([k, l]) => [
        k,
        { ...l, perSecond: Math.round(l.perSecond), p50Ms: round(l.p50Ms), p99Ms: round(l.p99Ms), maxMs: round(l.maxMs) },
      ]),
    ),
    sse,
    finalRssMB,
    samples,
  };
  console.log(JSON.stringify(summary, null, 2));
  if (opts.out) writeFileSync(opts.out, `${JSON.stringify(summary, null, 2)}\n`);
  if (opts.before) {
    const before = JSON.parse(readFileSync(opts.before, "utf8")) as unknown;
    console.log("figure: before -> after (after / before)");
    for (const f of compareFigures(before, summary))
      console.log(`  ${f.figure}: ${f.before ?? "-"} -> ${f.after}${f.ratio === null ? "" : ` (${f.ratio.toFixed(2)})`}`);
  }
  await Promise.all(children.map(stopGroup));
  await db.stop();
  await rm(dir, { recursive: true, force: true });
}

async function abandon(why: string): Promise<never> {
  console.error(`[bench-fleet] ${why}`);
  await Promise.all(children.map((c) => stopGroup(c).catch(() => undefined)));
  await database?.stop().catch(() => undefined);
  if (workDir) await rm(workDir, { recursive: true, force: true });
  process.exit(1);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void abandon(`${signal}: stopping the servers and PostgreSQL`));
main().catch((error: unknown) => abandon((error as Error).stack ?? String(error)));
