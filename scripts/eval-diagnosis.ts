// npm run eval:diagnosis [-- --part tuned|held-aside|fresh|evidence|evidence-held-aside|shapes|metrics|metrics-held-aside|
//   shapes-metrics|demo] [--show-held-aside] [--case <id>[,<id>…] or <prefix>*] [--without-logs] [--save-ranks <file>]
// --save-ranks writes each case's id, part, label and rank (no suspects, held-aside parts included), so that two runs
// can be compared case by case ("no case named right before is lost") without printing a held-aside miss.
// --without-logs reads a case's alerts but not its logs and journals: what Faultline read before issue 26.
// The metrics parts (metrics-only*.yaml; shapes-metrics once corpus/shapes/ has one) run with Debian's Prometheus
// (test/diagnosis/eval-metrics.ts), started once for them.
// Runs the labelled corpus of broken clusters (test/diagnosis/corpus/) and the demo cluster's scenarios through
// a real demo cluster server and the real monitor, and prints top-1, top-3, abstentions and calibration per part.
// The held-aside parts' misses (isHeldAside) are not printed unless asked for: they are never used for tuning. The demo scenarios run
// first: a corpus case with five nodes leaves two orphaned reports behind, which would count as "detected" later.
import { mkdirSync, writeFileSync } from "node:fs";
import {
  evaluateCases,
  evaluateScenarios,
  loadCorpus,
  SCENARIO_COUNT,
  startEvalMonitor,
  summarize,
  type EvalMonitor,
  type Outcome,
  type Part,
  isHeldAside,
  drivesCounters,
  isMetricsPart,
  PARTS,
} from "@/test/diagnosis/eval";
import { startMetricsEvalMonitor } from "@/test/diagnosis/eval-metrics";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const parts = option("--part") ? [option("--part")!] : ["demo", ...PARTS];
for (const part of parts)
  if (part !== "demo" && !PARTS.includes(part as Part)) {
    console.error(`--part ${part}: not a part (demo, ${PARTS.join(", ")})`);
    process.exit(2);
  }
const mode = args.includes("--without-logs") ? "without-logs" : "all";
// As production reads them: a case whose world drives the plugin's counters (decrypt errors, latency, key_id switches)
// runs with Debian's Prometheus too, unless --no-prometheus (the figures before issue 27 were measured without).
const prometheusForAll = !args.includes("--no-prometheus");
const only = option("--case");
const showHeld = args.includes("--show-held-aside");
const saveRanks = option("--save-ranks");
const pct = (n: number, of: number) => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);

function report(name: string, outcomes: Outcome[], showMisses: boolean): void {
  const s = summarize(outcomes);
  console.log(`\n## ${name}: ${s.cases} cases`);
  console.log(`detected ${s.detected}/${s.cases}; top-1 ${s.top1}/${s.cases} (${pct(s.top1, s.cases)}); top-3 ${s.top3}/${s.cases} (${pct(s.top3, s.cases)})`);
  console.log(
    `abstained (cannot tell the first two apart) ${s.abstained}, of which name the separating question ${s.abstainedWithQuestion}, of which the two hold the cause ${s.abstainedPairHoldsCause}`,
  );
  console.log(`named a cause without abstaining ${s.decided}, right ${s.decidedRight} (${pct(s.decidedRight, s.decided)})`);
  console.log(
    `right as a facet of its root cause ${s.asFacet}; asked the separating question ${s.asked}; top-1 after it is answered right ${s.top1AfterQuestion}/${s.cases} (${pct(s.top1AfterQuestion, s.cases)})`,
  );
  console.log(`calibration (first suspect's stated confidence → how often right): ${s.calibration.map((b) => `${b.band}: ${b.right}/${b.cases}`).join("; ")}`);
  if (!showMisses) return;
  for (const o of outcomes.filter((x) => x.rank !== 0)) {
    const top = o.suspects.map((x) => `${x.id} ${x.score} (${Math.round(x.confidence * 100)}%)`).join(", ");
    console.log(`  miss ${o.id}: label ${o.label} at ${o.rank < 0 ? "none" : o.rank + 1}${o.detected ? "" : " (no signal)"}; ranked ${top || "nothing"}`);
  }
}

async function main(): Promise<void> {
  const monitor = await startEvalMonitor();
  let withPrometheus: EvalMonitor | undefined;
  const all: Outcome[] = [];
  const progress = (total: number) => (o: Outcome, i: number) => process.stderr.write(`\r${o.part} ${i + 1}/${total} `);
  try {
    if (parts.some(isMetricsPart) || prometheusForAll) withPrometheus = await startMetricsEvalMonitor();
    for (const part of parts) {
      if (part === "demo") {
        if (only) continue;
        const outcomes = await evaluateScenarios(monitor, progress(SCENARIO_COUNT));
        all.push(...outcomes);
        report(
          "demo scenarios (those that raise a signal)",
          outcomes.filter((o) => o.detected),
          true,
        );
        continue;
      }
      const cases = loadCorpus(part as Part).filter(
        (c) => !only || only.split(",").includes(c.id) || (only.endsWith("*") && c.id.startsWith(only.slice(0, -1))),
      );
      let outcomes: Outcome[];
      if (isMetricsPart(part)) outcomes = await evaluateCases(cases, part as Part, withPrometheus!, progress(cases.length), mode);
      else {
        const counted = (c: (typeof cases)[number]) => prometheusForAll && drivesCounters(c.world);
        const plain = await evaluateCases(
          cases.filter((c) => !counted(c)),
          part as Part,
          monitor,
          progress(cases.length),
          mode,
        );
        const metered = await evaluateCases(cases.filter(counted), part as Part, withPrometheus ?? monitor, progress(cases.length), mode);
        const byId = new Map([...plain, ...metered].map((o) => [o.id, o]));
        outcomes = cases.map((c) => byId.get(c.id)!);
      }
      all.push(...outcomes);
      report(`corpus, ${part}`, outcomes, !isHeldAside(part as Part) || showHeld);
    }
  } finally {
    await withPrometheus?.sim.stop();
    await monitor.sim.stop();
  }
  mkdirSync("test-results", { recursive: true });
  writeFileSync(
    "test-results/diagnosis-eval.json",
    JSON.stringify(
      all.filter((o) => !isHeldAside(o.part) || showHeld),
      null,
      1,
    ),
  );
  if (saveRanks)
    writeFileSync(saveRanks, JSON.stringify(all.map(({ id, part, label, rank, rankAfterQuestion }) => ({ id, part, label, rank, rankAfterQuestion }))));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
