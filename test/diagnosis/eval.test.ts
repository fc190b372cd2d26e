import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCases, evaluateScenarios, loadCorpus, startEvalMonitor, summarize, type EvalMonitor, type Outcome } from "./eval";

// The diagnosis on every case of the corpus and every demo scenario, through a real demo cluster server and the
// real monitor (npm run eval:diagnosis prints the same figures). The floors are the figures measured when the
// diagnosis was last tuned, rounded down: a change that makes it worse fails here. The held-aside part is
// checked, never tuned on.

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

  it("keeps its figures on the held-aside corpus, and every 'cannot tell' names its question", async () => {
    const held = await evaluateCases(loadCorpus("held-aside"), "held-aside", monitor);
    const heldAside = summarize(held);
    expect(heldAside.top1 / heldAside.cases).toBeGreaterThanOrEqual(HELD_TOP1);
    expect(heldAside.top3 / heldAside.cases).toBeGreaterThanOrEqual(HELD_TOP3);
    expect(named(held)).toBe(true);
  }, 900_000);

  it("keeps its figures on the fresh held-aside corpus, and every 'cannot tell' names its question", async () => {
    const fresh = await evaluateCases(loadCorpus("fresh"), "fresh", monitor);
    const figures = summarize(fresh);
    expect(figures.cases).toBeGreaterThanOrEqual(50);
    expect(figures.top1 / figures.cases).toBeGreaterThanOrEqual(FRESH_TOP1);
    expect(figures.top3 / figures.cases).toBeGreaterThanOrEqual(FRESH_TOP3);
    expect(named(fresh)).toBe(true);
  }, 900_000);

  it("keeps its figures on the cases carried by alerts, logs and journals, tuned and held aside", async () => {
    const tuned = summarize(await evaluateCases(loadCorpus("evidence"), "evidence", monitor));
    expect(tuned.cases).toBeGreaterThanOrEqual(50);
    expect(tuned.top1 / tuned.cases).toBeGreaterThanOrEqual(EVIDENCE_TOP1);
    const held = await evaluateCases(loadCorpus("evidence-held-aside"), "evidence-held-aside", monitor);
    const figures = summarize(held);
    expect(figures.top1 / figures.cases).toBeGreaterThanOrEqual(EVIDENCE_HELD_TOP1);
    expect(figures.top3 / figures.cases).toBeGreaterThanOrEqual(EVIDENCE_HELD_TOP3);
    expect(named(held)).toBe(true);
  }, 900_000);
});

// Measured 2026-11-28 (issue 26): evidence 33/54 (top-3 41/54), held aside 23/52 and 37/52; before it (the alerts as
// mapped before, no logs read) 14/54 and 15/52.
const EVIDENCE_TOP1 = 0.6;
const EVIDENCE_HELD_TOP1 = 0.4;
const EVIDENCE_HELD_TOP3 = 0.68;

// Measured 2026-11-23 (stop 16): tuned 252/293, held-aside 38/49 and 42/49, fresh 44/54 and 48/54.
const TUNED_TOP1 = 0.85;
const HELD_TOP1 = 0.7;
const HELD_TOP3 = 0.8;
const FRESH_TOP1 = 0.75;
const FRESH_TOP3 = 0.85;
