// npm run bench:health -- --memory [--minutes 30] [--nodes 5000]: the server's resident memory (and V8 heap used)
// every 15 s while the monitor reads the demo cluster, and the slope over the last 10 minutes by least squares.
import { writeFileSync, mkdirSync } from "node:fs";
import { heapFigures, residentBytes, startServer } from "./bench-health-server";

const MB = 1024 * 1024;

/** Least-squares slope of y over x. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
}

/** The slope's standard error: with samples swinging by hundreds of MB between collections, a slope within about
 * two of these of zero cannot be told from flat. */
export function slopeError(points: { x: number; y: number }[]): number {
  const n = points.length;
  const b = slope(points);
  if (n < 3 || Number.isNaN(b)) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const residual = points.reduce((s, p) => s + (p.y - (my + b * (p.x - mx))) ** 2, 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return Math.sqrt(residual / (n - 2) / den);
}

export async function benchMemory(opts: { nodes: number; minutes: number; port: number; everySeconds: number }): Promise<void> {
  const started = Date.now();
  const server = await startServer(opts.nodes, opts.port);
  console.log(
    `server ready at ${opts.nodes} nodes after ${((Date.now() - started) / 1000).toFixed(0)} s; sampling every ${opts.everySeconds} s for ${opts.minutes} min`,
  );
  const t0 = Date.now();
  const samples: { minutes: number; rssMB: number; heapMB?: number; heapTotalMB?: number; externalMB?: number }[] = [];
  try {
    while (Date.now() - t0 <= opts.minutes * 60_000) {
      const heap = await heapFigures(server.base);
      const mb = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / MB);
      const sample = {
        minutes: (Date.now() - t0) / 60_000,
        rssMB: residentBytes(server.process.pid!) / MB,
        heapMB: mb(heap.used),
        heapTotalMB: mb(heap.total),
        externalMB: mb(heap.external),
      };
      samples.push(sample);
      console.log(
        `${sample.minutes.toFixed(2).padStart(6)} min  RSS ${sample.rssMB.toFixed(0).padStart(5)} MB  heap used ${sample.heapMB?.toFixed(0) ?? "?"} MB` +
          `  heap total ${sample.heapTotalMB?.toFixed(0) ?? "?"} MB  external ${sample.externalMB?.toFixed(0) ?? "?"} MB`,
      );
      await new Promise((r) => setTimeout(r, opts.everySeconds * 1000));
    }
  } finally {
    await server.stop();
  }
  const last10 = samples.filter((s) => s.minutes >= opts.minutes - 10);
  const rssPoints = last10.map((s) => ({ x: s.minutes, y: s.rssMB }));
  const rssSlope = slope(rssPoints);
  const externalSlope = slope(last10.flatMap((s) => (s.externalMB === undefined ? [] : [{ x: s.minutes, y: s.externalMB }])));
  const heapSlope = slope(last10.flatMap((s) => (s.heapMB === undefined ? [] : [{ x: s.minutes, y: s.heapMB }])));
  const end = samples[samples.length - 1];
  const summary = {
    nodes: opts.nodes,
    minutes: opts.minutes,
    finalRssMB: Math.round(end.rssMB),
    maxRssMB: Math.round(Math.max(...samples.map((s) => s.rssMB))),
    rssSlopeLast10MBPerMin: Number(rssSlope.toFixed(2)),
    rssSlopeStdErrMBPerMin: Number(slopeError(rssPoints).toFixed(2)),
    externalSlopeLast10MBPerMin: Number(externalSlope.toFixed(2)),
    heapSlopeLast10MBPerMin: Number(heapSlope.toFixed(2)),
    samples,
  };
  mkdirSync("test-results", { recursive: true });
  writeFileSync(`test-results/bench-health-memory-${opts.nodes}.json`, JSON.stringify(summary, null, 2));
  console.log(
    `after ${opts.minutes} min at ${opts.nodes} nodes: RSS ${summary.finalRssMB} MB (max ${summary.maxRssMB} MB); slope over the last 10 min ` +
      `${summary.rssSlopeLast10MBPerMin} ± ${summary.rssSlopeStdErrMBPerMin} MB/min RSS, ${summary.heapSlopeLast10MBPerMin} MB/min heap used, ` +
      `${summary.externalSlopeLast10MBPerMin} MB/min external (least squares over ${last10.length} samples; ± one standard error)`,
  );
}
