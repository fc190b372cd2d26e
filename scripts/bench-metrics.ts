// npm run bench:metrics [-- 3,500,2000]: what /metrics costs with Faultline's own series, per demo cluster size:
// series and bytes of that cluster in one scrape (of the whole scrape after it), and how long rendering it takes (first scrape, then the median of 10 more).
// In-process, no database (faultline_incidents_open is then left out, as /metrics does when the database is down).
import { publishHealth } from "@/lib/live/registry";
import { renderAllMetrics } from "@/lib/exporter/collectors";
import { settledPoll, startDemoMonitor } from "@/test/demo-monitor";

const sizes = (process.argv[2] ?? "3,500,2000").split(",").map(Number);

async function main(): Promise<void> {
  console.log("nodes | signals | faultline_ series | their bytes of the scrape | first render ms | median render ms");
  for (const nodes of sizes) {
    const sim = await startDemoMonitor({ nodes });
    try {
      const health = await settledPoll(sim.entry, 60_000);
      publishHealth({ ...health, name: `bench-${nodes}` });
      const t0 = performance.now();
      const { text } = await renderAllMetrics();
      const first = performance.now() - t0;
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await renderAllMetrics();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const ours = text.split("\n").filter((l) => l.startsWith("faultline_") && l.includes(`cluster="bench-${nodes}"`));
      const bytes = Buffer.byteLength(ours.join("\n"));
      console.log(
        `${nodes} | ${health.signals.length} | ${ours.length} | ${bytes} of ${Buffer.byteLength(text)} | ${first.toFixed(1)} | ${times[5].toFixed(1)}`,
      );
    } finally {
      await sim.stop();
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
