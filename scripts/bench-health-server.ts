// The production server at a given demo size, as `npm start` runs it, for bench-health.ts: started with its own
// data folder on a loopback port, ready once the monitor has read every node; and what a page and the API cost.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM } from "../test/chromium";

export interface Server {
  nodes: number;
  base: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** `node --import tsx scripts/start.ts` (npm start without npm in between, so the process measured is the server). */
export async function startServer(nodes: number, port: number, extraEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      FAULTLINE_DEMO_NODES: String(nodes),
      FAULTLINE_DATA_DIR: `.data/bench-health-${nodes}-${port}`,
      NEXT_TELEMETRY_DISABLED: "1",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout!.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  child.stderr!.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((r) => child.once("exit", r));
  };
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server stopped (${child.exitCode}):\n${log}`);
    const read = await fetch(`${base}/api/v1/clusters/demo/health?view=summary`).catch(() => undefined);
    if (read?.status === 200) {
      const view = (await read.json()) as { matrix?: { inView: { counts: { total: number } } } };
      if (view.matrix?.inView.counts.total === nodes) return { nodes, base, process: child, stop };
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
  await stop();
  throw new Error(`the server did not read ${nodes} nodes within 5 minutes:\n${log}`);
}

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  bytes: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

/** Sequential GETs of one address: each one's time to the last byte. */
export async function measureApi(url: string, samples: number): Promise<Latency> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers: { "Accept-Encoding": "identity" } });
    const body = await response.arrayBuffer();
    times.push(performance.now() - t0);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 0.5), p95: pct(times, 0.95), p99: pct(times, 0.99), max: times[times.length - 1], bytes };
}

export async function measureHtml(url: string): Promise<{ raw: number; gzip: number }> {
  const html = Buffer.from(await (await fetch(url)).arrayBuffer());
  return { raw: html.length, gzip: gzipSync(html).length };
}

export async function launchChromium(): Promise<Browser> {
  // As playwright.config.ts launches it: Debian's Chromium, never a download.
  return chromium.launch(CHROMIUM);
}

/** Largest Contentful Paint of a fresh page load (new context: no cache), in ms. */
export async function measureLcp(browser: Browser, url: string, screenshot?: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load", timeout: 120_000 });
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let last = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = e.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        // LCP entries are final once the page is loaded and has painted twice more.
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(last), 200)));
      }),
  );
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: false });
  await context.close();
  return lcp;
}

/** Resident memory of a process (Linux /proc), in bytes. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) * 1024;
}

/** The server's own memory figures from /metrics (prom-client's default metrics): V8 heap used and total, and
 * external memory (Buffers and other native allocations V8 knows of), to tell a growing heap from growing native memory. */
export async function heapFigures(base: string): Promise<{ used?: number; total?: number; external?: number }> {
  const text = await (await fetch(`${base}/metrics`)).text().catch(() => "");
  const read = (name: string) => {
    const line = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
    return line ? Number(line[1]) : undefined;
  };
  return { used: read("nodejs_heap_size_used_bytes"), total: read("nodejs_heap_size_total_bytes"), external: read("nodejs_external_memory_bytes") };
}
