// The load of `npm run bench:fleet` (scripts/bench-fleet.ts): many clients polling one address with Debian's wrk,
// and Server-Sent Events streams followed as a page follows them.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Agent, fetch } from "undici";
import { sortFleet, type FleetRow } from "@/lib/fleet/fleet-row";
import type { FleetPush } from "@/lib/fleet/live";
import { parseWrkReport, percentile, SseReader, WRK_MARK, type LoadFigures } from "./bench-fleet-figures";

/**
 * wrk's script: the paths in turn, and at the end the figures as one line. wrk keeps every latency in a histogram
 * that Lua reads only through percentiles, so the requests over 1 s are found by the rank where the latency passes it.
 */
const WRK_SCRIPT = `
local paths = {}
for p in string.gmatch(os.getenv("BENCH_PATHS"), "[^ ]+") do paths[#paths + 1] = p end
local turn = 0
request = function()
  turn = turn % #paths + 1
  return wrk.format("GET", paths[turn])
end
done = function(summary, latency, requests)
  local over = 0
  if latency.max > 1000000 then
    local lo, hi = 0, 100
    for _ = 1, 60 do
      local mid = (lo + hi) / 2
      if latency:percentile(mid) > 1000000 then hi = mid else lo = mid end
    end
    over = math.floor(summary.requests * (100 - hi) / 100 + 0.5)
  end
  local e = summary.errors
  io.write(string.format('${WRK_MARK}{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d,"over1s":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeouts":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max, over, e.connect, e.read, e.write, e.status, e.timeout))
end
`;

/**
 * `clients` keep-alive connections asking for `paths` in turn for `seconds`, a request given 10 s. wrk runs on one
 * thread by default: on this 2-core machine, with the server on one core, a second wrk thread starved and its
 * connections' latency was wrk's own (one cluster's summary, 200 clients: p99 1.06 s and 90 timeouts with two threads,
 * 69 ms with one, at the same 4,300-4,400 requests/s).
 */
export async function runWrk(o: { base: string; paths: string[]; clients: number; seconds: number; dir: string; threads?: number }): Promise<LoadFigures> {
  const script = path.join(o.dir, "bench-fleet.lua");
  writeFileSync(script, WRK_SCRIPT);
  const args = [`-t${o.threads ?? 1}`, `-c${o.clients}`, `-d${o.seconds}s`, "--timeout", "10s", "-s", script, `${o.base}${o.paths[0]}`];
  const child = spawn("wrk", args, { env: { ...process.env, BENCH_PATHS: o.paths.join(" ") }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`wrk exited ${code}:\n${out}`);
  return parseWrkReport(out);
}

export interface Stream {
  /** Every event received, with the time its chunk arrived (performance.now()). */
  events: { event: string; data: string; at: number }[];
  /** Resolves once the server has answered with the stream's first bytes. */
  opened: Promise<void>;
  close: () => void;
}

/** Follows one SSE address; the chunk's arrival time is taken before it is parsed. */
export function openStream(url: string, dispatcher: Agent): Stream {
  const controller = new AbortController();
  const events: Stream["events"] = [];
  let open!: () => void;
  let fail!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  void (async () => {
    const response = await fetch(url, { signal: controller.signal, dispatcher, headers: { Accept: "text/event-stream" } });
    if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
    const reader = new SseReader();
    const decoder = new TextDecoder();
    let first = true;
    for await (const chunk of response.body) {
      const at = performance.now();
      if (first) open();
      first = false;
      for (const e of reader.push(decoder.decode(chunk as Uint8Array, { stream: true }))) events.push({ ...e, at });
    }
  })().catch((error: Error) => {
    if (!controller.signal.aborted) fail(error);
  });
  return { events, opened, close: () => controller.abort() };
}

/** A fleet stream's rows as a page holds them: the full push, then each push's rows put in place. */
export function fleetRowsOf(stream: Stream, until = Number.POSITIVE_INFINITY): Map<string, FleetRow> {
  const rows = new Map<string, FleetRow>();
  for (const e of stream.events) {
    if (e.event !== "fleet" || e.at > until) continue;
    const push = JSON.parse(e.data) as FleetPush;
    if (push.full) rows.clear();
    for (const row of push.rows) rows.set(row.name, row);
  }
  return rows;
}

/** When the fleet stream first showed `cluster` first (after `since`), or undefined. */
export function firstRowAt(stream: Stream, cluster: string, since: number): number | undefined {
  const rows = fleetRowsOf(stream, since);
  for (const e of stream.events) {
    if (e.event !== "fleet" || e.at <= since) continue;
    const push = JSON.parse(e.data) as FleetPush;
    if (push.full) rows.clear();
    for (const row of push.rows) rows.set(row.name, row);
    if (sortFleet([...rows.values()])[0]?.name === cluster) return e.at;
  }
  return undefined;
}

/** When a fleet stream's push first carried `cluster` in `state` (after `since`), or undefined. */
export function rowStateAt(stream: Stream, cluster: string, state: string, since: number): number | undefined {
  const needle = `"name":${JSON.stringify(cluster)}`;
  for (const e of stream.events) {
    if (e.event !== "fleet" || e.at <= since || !e.data.includes(needle)) continue;
    if ((JSON.parse(e.data) as FleetPush).rows.some((r) => r.name === cluster && r.state === state)) return e.at;
  }
  return undefined;
}

/** When a cluster stream first carried the push of `version` or a later one (after `since`), or undefined. */
export function versionAt(stream: Stream, version: number, since: number): number | undefined {
  for (const e of stream.events) {
    if (e.event !== "health" || e.at <= since) continue;
    if ((JSON.parse(e.data) as { version: number }).version >= version) return e.at;
  }
  return undefined;
}

/** What `check` answers within `timeoutMs` (asked every `everyMs`), or undefined. */
export async function within<T>(timeoutMs: number, check: () => T | undefined | Promise<T | undefined>, everyMs = 50): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What `check` answers within `timeoutMs`; throws naming `what` after that. */
export async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs: number, everyMs = 50): Promise<T> {
  const found = await within(timeoutMs, check, everyMs);
  if (found === undefined) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
  return found;
}

/**
 * `clients` dashboards, each asking for the next of `paths` every `intervalMs` (spread evenly over the interval) for
 * `seconds`: the load as a team's screens make it, at the rate they choose, not as fast as the server answers. A
 * request is timed from when it was due, so an answer that holds up the client's next poll counts that wait too.
 */
export async function runPolling(o: { base: string; paths: string[]; clients: number; intervalMs: number; seconds: number }): Promise<LoadFigures> {
  const dispatcher = new Agent({ connections: o.clients, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + o.seconds * 1000;
  const client = async (i: number) => {
    let due = t0 + (i * o.intervalMs) / o.clients;
    let turn = i;
    while (due < end) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const path = o.paths[turn++ % o.paths.length];
      try {
        const response = await fetch(`${o.base}${path}`, { dispatcher, signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (!response.ok) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - due);
      due += o.intervalMs;
    }
  };
  await Promise.all(Array.from({ length: o.clients }, (_, i) => client(i)));
  await dispatcher.close();
  const seconds = (performance.now() - t0) / 1000;
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: Math.max(...latencies),
    over1s: latencies.filter((ms) => ms > 1000).length,
    errors,
  };
}
