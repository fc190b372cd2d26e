import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePrometheus } from "@/test/prometheus";
import { evaluateCases, evaluateScenarios, loadCorpus, startEvalMonitor, summarize, type EvalMonitor, type Outcome } from "./eval";
import { startMetricsEvalMonitor } from "./eval-metrics";

// The diagnosis on every demo scenario, the tuned corpus and its metrics-only cases, through a real demo cluster server
// and the real monitor, with Debian's Prometheus for the metrics (npm run eval:diagnosis prints the same figures;
// eval-held.test.ts runs the held-aside parts, so the two files run side by side). The floors are the figures measured
// when the diagnosis was last tuned, rounded down: a change that makes it worse fails here.

let monitor: EvalMonitor;
beforeAll(async () => {
  monitor = await startEvalMonitor();
});
afterAll(() => monitor.sim.stop());

const named = (outcomes: Outcome[]) => outcomes.filter((o) => o.top?.undecided).every((o) => o.top!.undecided!.question.trim().length > 0);

describe("diagnosis evaluation", () => {
  it("names the injected failure mode first for at least 33 of the demo scenarios that raise a signal", async () => {
    const outcomes = (await evaluateScenarios(monitor)).filter((o) => o.detected);
    const firsts = outcomes.filter((o) => o.rank === 0).length;
    expect(
      firsts,
      outcomes
        .filter((o) => o.rank !== 0)
        .map((o) => `${o.id} → ${o.top?.id}`)
        .join("; "),
    ).toBeGreaterThanOrEqual(33);
    expect(named(outcomes)).toBe(true);
  }, 240_000);

  it("keeps its figure on the tuned corpus", async () => {
    const tuned = summarize(await evaluateCases(loadCorpus("tuned"), "tuned", monitor));
    expect(tuned.cases).toBeGreaterThanOrEqual(290);
    expect(tuned.top1 / tuned.cases).toBeGreaterThanOrEqual(TUNED_TOP1);
  }, 900_000);
});

// Measured 2026-11-23 (stop 16): tuned 252/293; 2026-11-28: 251/293; 2026-11-29 (issue 27): 265/293 with Prometheus for
// the cases that drive the counters (npm run eval:diagnosis), at least 261 here without it.
const TUNED_TOP1 = 0.89;

describe("diagnosis evaluation of the cases only metrics show", () => {
  it("names the cause of the tuned metrics-only cases from what Prometheus scraped", async () => {
    requirePrometheus();
    const withPrometheus = await startMetricsEvalMonitor();
    try {
      const outcomes = await evaluateCases(loadCorpus("metrics"), "metrics", withPrometheus);
      const figures = summarize(outcomes);
      expect(figures.cases).toBeGreaterThanOrEqual(7);
      // Most of these worlds raise nothing but metrics: each detected through Prometheus.
      expect(figures.detected).toBe(figures.cases);
      expect(figures.top1 / figures.cases, JSON.stringify(outcomes.map((o) => [o.id, o.top?.id]))).toBeGreaterThanOrEqual(METRICS_TOP1);
      expect(figures.top3 / figures.cases).toBeGreaterThanOrEqual(METRICS_TOP3);
      expect(named(outcomes)).toBe(true);
    } finally {
      await withPrometheus.sim.stop();
    }
  }, 600_000);
});

// Measured 2026-11-28 (issue 27, first run with Prometheus): 5/7, top-3 6/7; 2026-11-29 (the world's AAD reason): 6/7, 6/7.
const METRICS_TOP1 = 0.85;
const METRICS_TOP3 = 0.85;
