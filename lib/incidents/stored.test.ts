import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getRoute } from "@/app/api/v1/incidents/[id]/route";
import { setDatabaseUrl } from "@/lib/env";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { loadIncidentPage } from "@/lib/views/incident";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { applyRound } from "./rounds/apply-round";
import { readPath, readSteps, readSuspects, StoredRowError, stepsJson, suspectsJson, type RecordedStep, type StoredSuspect } from "./stored";

// Stored JSON is read through its schema: a row that does not parse is a StoredRowError naming the row and the field,
// and the incident still shows, saying what it left out.

const suspect: StoredSuspect = {
  id: "openbao-sealed",
  title: "OpenBao sealed",
  score: 9,
  confidence: 0.9,
  reason: "openbao.sealed is critical",
  supports: ["openbao.sealed is critical"],
  contradicts: [],
  signals: ["openbao.sealed"],
  startupBlock: "yes",
  dataLoss: "no",
  linkedBy: [],
  undecided: {
    with: "openbao-unavailable",
    withTitle: "OpenBao unavailable",
    question: "Does it answer?",
    runbook: { id: "r", title: "R", node: "n", path: ["a"] },
  },
};
const step: RecordedStep = {
  index: 0,
  node: "start",
  question: "Is it sealed?",
  answer: "Yes",
  to: "unseal",
  suggested: {
    answer: "Yes",
    signal: "openbao.sealed",
    state: "critical",
    evidence: [{ subject: "openbao", state: "critical", detail: "sealed", evidence: null }],
  },
  followedSuggestion: true,
  evidence: { pasted: "sealed: true" },
  note: null,
  actor: "ana",
  at: "2026-11-22T12:00:00.000Z",
};

describe("reading stored JSON", () => {
  it("reads back what was written", () => {
    expect(readSuspects(suspectsJson([suspect]), 1)).toEqual([suspect]);
    expect(readSteps(stepsJson([step]), 2)).toEqual([step]);
    expect(readPath(["start", "unseal"], 2)).toEqual(["start", "unseal"]);
  });

  it("reads an empty column as no suspects, and a suspect ranked before confidences as one without them", () => {
    expect(readSuspects(null, 1)).toEqual([]);
    const { confidence, supports, contradicts, undecided, ...older } = suspect;
    expect([confidence, supports, contradicts, undecided]).toHaveLength(4);
    expect(readSuspects([older], 1)).toEqual([older]);
  });

  it("names the row and the field of a value that does not parse", () => {
    const bad = () => readSuspects([suspect, { ...suspect, score: "high" }], 12);
    expect(bad).toThrow(StoredRowError);
    expect(bad).toThrow(/^incident 12 suspects could not be read: 1\.score: /);
    expect(() => readSteps({ not: "a list" }, 3)).toThrow(/^runbook session 3 steps could not be read: \(the value\): /);
    expect(() => readSteps([{ ...step, suggested: { answer: "Yes" } }], 3)).toThrow(/^runbook session 3 steps could not be read: 0\.suggested\.signal: /);
    expect(() => readPath([], 3)).toThrow(StoredRowError);
  });
});

describe("an incident whose stored suspects do not parse", () => {
  let db: Awaited<ReturnType<typeof migratedDatabase>>;
  let id: number;
  beforeAll(async () => {
    db = await migratedDatabase();
    setDatabaseUrl(db.url);
    const config = parseRulesConfig({ openAfterObservations: 1 });
    id = (await applyRound(db.prisma, "broken-row", [signal("openbao.sealed", "openbao", "critical")], at(0), config)).opened[0];
    await db.prisma.incident.update({ where: { id }, data: { suspects: [{ id: "openbao-sealed", score: "high" }] } });
  });
  afterAll(async () => db.close());

  it("still answers the API with the incident, without suspects, saying why", async () => {
    const res = await getRoute(new NextRequest(`http://127.0.0.1:3000/api/v1/incidents/${id}`), { params: Promise.resolve({ id: String(id) }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.incident).toMatchObject({ id, cluster: "broken-row" });
    expect(body.suspects).toEqual([]);
    expect(body.unreadable).toEqual([expect.stringMatching(new RegExp(`^incident ${id} suspects could not be read: 0\\.title: `))]);
  });

  it("still loads the incident page, which says the suspects could not be read", async () => {
    const page = await loadIncidentPage(String(id));
    expect(page?.storeDown).toBeUndefined();
    expect(page?.detail?.incident.id).toBe(id);
    expect(page?.detail?.suspects).toEqual([]);
    expect(page?.detail?.unreadable).toEqual([expect.stringContaining(`incident ${id} suspects could not be read`)]);
  });

  it("ranks afresh over the unreadable row on the next round", async () => {
    const config = parseRulesConfig({ openAfterObservations: 1 });
    await applyRound(db.prisma, "broken-row", [signal("openbao.sealed", "openbao", "critical", "sealed again")], at(30), config);
    const row = await db.prisma.incident.findUniqueOrThrow({ where: { id } });
    expect(readSuspects(row.suspects, id).length).toBeGreaterThan(0);
  });
});
