import { settledPoll, startDemoMonitor } from "@/test/demo-monitor";
import { applyWorld } from "@/test/diagnosis/world";
import { loadCorpus } from "@/test/diagnosis/eval";
import { getCatalog } from "@/lib/catalog/queries";
import { classifyText } from "@/lib/diagnosis/classify";
async function main() {
  const ids = process.argv.slice(2);
  const sim = await startDemoMonitor();
  const classes = getCatalog().errorClasses;
  for (const c of loadCorpus("tuned").filter((x) => ids.length === 0 || ids.includes(x.id))) {
    applyWorld(sim.server.cluster, {});
    await settledPoll(sim.entry);
    applyWorld(sim.server.cluster, c.world);
    const h = await settledPoll(sim.entry);
    console.log(`\n# ${c.id} → ${c.label}`);
    const seen = new Set<string>();
    for (const sig of h.signals.filter((x) => x.state !== "ok")) {
      const key = `${sig.id} ${sig.state} ${sig.detail.replace(/master-\d/g, "")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      console.log(`  ${sig.id} ${sig.state} [${sig.subject}] ${sig.detail.slice(0, 300)}\n     classes: ${classifyText(sig.detail, classes).map((x) => x.id).join(",")}`);
    }
  }
  await sim.stop();
  process.exit(0);
}
main();
