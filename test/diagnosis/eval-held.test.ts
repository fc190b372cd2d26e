import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCases, loadCorpus, startEvalMonitor, summarize, type EvalMonitor, type Outcome } from "./eval";

// The diagnosis on the held-aside parts of the corpus (held-aside, fresh) and on the cases carried by alerts, logs and
// journals, through a real demo cluster server and the real monitor, beside eval.test.ts (which runs the demo
// scenarios and the tuned part). The floors are the figures measured, rounded down: a change that makes them worse
// fails here. These parts are checked, never tuned on.

let monitor: EvalMonitor;
beforeAll(async () => {
  monitor = await startEvalMonitor();
});
afterAll(() => monitor.sim.stop());

const named = (outcomes: Outcome[]) => outcomes.filter((o) => o.top?.undecided).every((o) => o.top!.undecided!.question.trim().length > 0);

describe("diagnosis evaluation, held aside and evidence", () => {
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
// mapped before, no logs read) 14/54 and 15/52. 2026-11-29 (issue 27): 40/54 here, where no case runs with Prometheus
// (41/54 with it, npm run eval:diagnosis), held aside 32/52 and 41/52 with it.
const EVIDENCE_TOP1 = 0.7;
const EVIDENCE_HELD_TOP1 = 0.55;
const EVIDENCE_HELD_TOP3 = 0.7;

// Measured 2026-11-23 (stop 16): tuned 252/293, held-aside 38/49 and 42/49, fresh 44/54 and 48/54; 2026-11-29
// (issue 27): held-aside 40/49 and 45/49; fresh 45/54 here, without Prometheus (47/54 and 49/54 with it).
const HELD_TOP1 = 0.8;
const HELD_TOP3 = 0.9;
const FRESH_TOP1 = 0.8;
const FRESH_TOP3 = 0.85;
