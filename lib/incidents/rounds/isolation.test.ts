import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { newMemo, persistRound } from "@/lib/store/persist";
import { applyRound } from "./apply-round";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { at, migratedDatabase, signal } from "@/test/incident-db";

// One unit the database refuses (a subject too large for PostgreSQL's index, which no cleaning of characters
// prevents) fails alone: the others of the same round are judged and stored.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
});
afterAll(async () => db.close());

// 8,000 characters that do not compress: larger than a btree index entry may be (2,704 bytes).
const HUGE = randomBytes(6000).toString("base64");
const round = () => [
  signal("openbao.sealed", "openbao", "critical", "sealed (503)"),
  signal("kms.plugin.unhealthy", `${HUGE}/1`, "critical", "plugin down"),
  signal("beacon.unreachable", "beacon", "critical", "HTTP 503"),
];
const config = parseRulesConfig({ openAfterObservations: 2, openAfterSeconds: 3600 });

describe("a unit the database refuses", () => {
  it("opens the incident for the others and says which signal was refused and why", async () => {
    expect((await applyRound(prisma, "iso", round(), at(0), config)).refused).toEqual([
      {
        unit: expect.stringMatching(/^kms\.plugin\.unhealthy on .{100,}…\[clipped\]$/),
        reason: expect.stringMatching(/index row size \d+ exceeds btree version 4 maximum 2704/),
      },
    ]);
    const second = await applyRound(prisma, "iso", round(), at(2), config);
    expect(second.opened).toHaveLength(1);
    expect(second.refused?.map((r) => r.unit.slice(0, 24))).toEqual(["kms.plugin.unhealthy on "]);
    const members = await prisma.incidentMember.findMany({ where: { incidentId: second.opened[0] }, orderBy: { id: "asc" } });
    expect(members.map((m) => m.signal).sort()).toEqual(["beacon.unreachable", "openbao.sealed"]);
    // The refused signal's rule memory was not advanced, so it is decided again (and refused again) next round.
    const third = await applyRound(prisma, "iso", round(), at(4), config);
    expect(third.refused).toHaveLength(1);
    expect(await prisma.signalState.count({ where: { cluster: "iso", judged: { not: null } } })).toBe(2);
  });

  it("opens a group without its refused member when all fire in the same round", async () => {
    const first = await applyRound(prisma, "iso-group", round(), at(0), parseRulesConfig({ openAfterObservations: 1 }));
    expect(first.opened).toHaveLength(1);
    expect(first.refused).toHaveLength(1);
    const members = await prisma.incidentMember.findMany({ where: { incidentId: first.opened[0] } });
    expect(members.map((m) => m.signal).sort()).toEqual(["beacon.unreachable", "openbao.sealed"]);
  });

  it("stores the other signals and the sources, and keeps the refused one for the page", async () => {
    const memo = newMemo();
    const health = { name: "iso-store", signals: round() } as ClusterHealth;
    const sources = { beacon: { name: "beacon", up: true, value: { status: 200, body: "ok" } } };
    expect(await persistRound(prisma, health, sources, memo, at(0))).toBe(2);
    const stored = await prisma.signalState.findMany({ where: { cluster: "iso-store" } });
    expect(stored.map((s) => s.signal).sort()).toEqual(["beacon.unreachable", "openbao.sealed"]);
    expect(await prisma.sourceSnapshot.count({ where: { cluster: "iso-store" } })).toBe(1);
    expect([...memo.refused.values()]).toEqual([
      { unit: expect.stringMatching(/^kms\.plugin\.unhealthy on /), reason: expect.stringMatching(/index row size/) },
    ]);
    // Next round only the refused one is tried again, alone.
    expect(await persistRound(prisma, health, sources, memo, at(1))).toBe(0);
    expect(memo.refused.size).toBe(1);
    // Once the signal is gone from the round, it is no longer shown as refused.
    await persistRound(prisma, { ...health, signals: round().slice(0, 1) }, sources, memo, at(2));
    expect(memo.refused.size).toBe(0);
  });
});

describe("text the rules and storage are handed directly", () => {
  it("opens and stores a signal whose detail and evidence hold a NUL and a lone surrogate, shown as U+FFFD", async () => {
    const hostile = { ...signal("openbao.sealed", "openbao", "critical", "sealed\u0000 (503) \ud800"), evidence: { body: "x\u0000y" } };
    const cfg = parseRulesConfig({ openAfterObservations: 2, openAfterSeconds: 3600 });
    await applyRound(prisma, "nul", [hostile], at(0), cfg);
    const { opened } = await applyRound(prisma, "nul", [hostile], at(2), cfg);
    expect(opened).toHaveLength(1);
    const [m] = await prisma.incidentMember.findMany({ where: { incidentId: opened[0] } });
    expect(m.detail).toBe("sealed\uFFFD (503) \uFFFD");

    const memo = newMemo();
    expect(await persistRound(prisma, { name: "nul", signals: [hostile] } as ClusterHealth, {}, memo, at(0))).toBe(1);
    const stored = await prisma.signalState.findFirstOrThrow({ where: { cluster: "nul" } });
    expect([stored.detail, stored.evidence]).toEqual(["sealed\uFFFD (503) \uFFFD", { body: "x\uFFFDy" }]);
  });
});
