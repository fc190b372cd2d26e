// npm run bench:health -- --server [--nodes 50,5000]: for each size, the production server with the demo cluster
// at that many nodes: the health API's latency (whole document, summary, a page of rows, one node), the health
// page's HTML raw and gzipped, and LCP in Debian's Chromium; then the LCP ratio between the largest and the
// smallest size, measured in this one run. A screenshot of /health at each size lands in test-results/.
import { mkdirSync, writeFileSync } from "node:fs";
import { launchChromium, measureApi, measureHtml, measureLcp, startServer, type Latency } from "./bench-health-server";

const LCP_SAMPLES = 7;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface SizeResult {
  nodes: number;
  api: Record<string, Latency>;
  html: { raw: number; gzip: number };
  lcp: number[];
  /** The same with OpenBao sealed, so every plugin on every node fails (largest size only). */
  failing?: { unhealthy: number; html: { raw: number; gzip: number }; summary: Latency };
}

export async function benchWeb(opts: { sizes: number[]; port: number }): Promise<void> {
  mkdirSync("test-results", { recursive: true });
  const browser = await launchChromium();
  const results: SizeResult[] = [];
  try {
    for (const nodes of opts.sizes) {
      const server = await startServer(nodes, opts.port);
      try {
        const health = `${server.base}/api/v1/clusters/demo/health`;
        // Warm up Next's route and page bundles once, so the first sample is not a cold start.
        await measureApi(health, 2);
        await measureHtml(`${server.base}/health`);
        const api = {
          whole: await measureApi(health, nodes >= 1000 ? 100 : 200),
          summary: await measureApi(`${health}?view=summary`, 200),
          "rows (healthy, 200)": await measureApi(`${health}?view=rows&state=healthy&limit=200`, 200),
          "one node": await measureApi(`${health}/nodes/master-1`, 200),
        };
        const html = await measureHtml(`${server.base}/health`);
        const lcp: number[] = [];
        await measureLcp(browser, `${server.base}/health`); // warm-up load, not counted
        for (let i = 0; i < LCP_SAMPLES; i++)
          lcp.push(await measureLcp(browser, `${server.base}/health`, i === 0 ? `test-results/bench-health-${nodes}.png` : undefined));
        const failing = nodes === Math.max(...opts.sizes) ? await measureFailing(server.base, nodes) : undefined;
        results.push({ nodes, api, html, lcp, failing });
        print(results[results.length - 1]);
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser.close();
  }
  const [small, large] = [results[0], results[results.length - 1]];
  const ratio = median(large.lcp) / median(small.lcp);
  console.log(`LCP ratio, ${large.nodes} nodes / ${small.nodes} nodes (medians of ${LCP_SAMPLES}, same run): ${ratio.toFixed(2)}`);
  writeFileSync("test-results/bench-health-web.json", JSON.stringify({ results, lcpRatio: ratio }, null, 2));
}

/** Seals the demo's OpenBao (every plugin fails at the next reporter round) and measures the page and summary then. */
async function measureFailing(base: string, nodes: number): Promise<SizeResult["failing"]> {
  const sealed = await fetch(`${base}/api/v1/demo/scenarios/openbao-sealed`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: "{}",
  });
  if (!sealed.ok) throw new Error(`could not seal OpenBao: HTTP ${sealed.status}`);
  const until = Date.now() + 180_000;
  let unhealthy = 0;
  while (Date.now() < until && unhealthy < nodes / 2) {
    await new Promise((r) => setTimeout(r, 2_000));
    const view = (await (await fetch(`${base}/api/v1/clusters/demo/health?view=summary`)).json()) as { matrix?: { inView: { counts: { unhealthy: number } } } };
    unhealthy = view.matrix?.inView.counts.unhealthy ?? 0;
  }
  const html = await measureHtml(`${base}/health`);
  const summary = await measureApi(`${base}/api/v1/clusters/demo/health?view=summary`, 200);
  await fetch(`${base}/api/v1/demo/scenarios/openbao-sealed`, { method: "DELETE", headers: { "Content-Type": "application/json", Origin: base } });
  return { unhealthy, html, summary };
}

function print(r: SizeResult) {
  console.log(`${r.nodes} nodes:`);
  for (const [name, l] of Object.entries(r.api))
    console.log(`  GET ${name.padEnd(20)} p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, p99 ${ms(l.p99)}, max ${ms(l.max)}; ${kb(l.bytes)}`);
  console.log(`  /health HTML ${kb(r.html.raw)} raw, ${kb(r.html.gzip)} gzipped`);
  console.log(`  LCP median ${ms(median(r.lcp))} (${r.lcp.map((x) => x.toFixed(0)).join(", ")} ms)`);
  if (r.failing)
    console.log(
      `  OpenBao sealed, ${r.failing.unhealthy} nodes unhealthy: /health HTML ${kb(r.failing.html.raw)} raw, ${kb(r.failing.html.gzip)} gzipped; ` +
        `GET summary p50 ${ms(r.failing.summary.p50)}, p95 ${ms(r.failing.summary.p95)}, p99 ${ms(r.failing.summary.p99)}; ${kb(r.failing.summary.bytes)}`,
    );
}
