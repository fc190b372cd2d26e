import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { loadJudgements, saveJudgements } from "./judgements";
import { commitRound, newMemo } from "./persist";

// On a real PostgreSQL: the store's commits and the incident rules' judgements share one row per signal,
// and neither overwrites what the other owns.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
});
afterAll(async () => db.close());

const health = (state: "ok" | "critical") =>
  ({ name: "one", signals: [signal("kms.plugin.unhealthy", "master-1/2", state, `plugin ${state}`)] }) as ClusterHealth;

describe("one signal-state table", () => {
  it("keeps the rules' judgement across the store's commits, and the committed state across the rules' writes", async () => {
    const memo = newMemo();
    const first = await commitRound(db.prisma, health("critical"), {}, memo, at(0));
    expect(first.transitions).toEqual([{ signal: "kms.plugin.unhealthy", subject: "master-1/2", previous: null, state: "critical" }]);
    const judged = {
      signal: "kms.plugin.unhealthy",
      subject: "master-1/2",
      state: "critical",
      since: at(1),
      streak: 2,
      handled: true,
      detail: "plugin critical",
      onsets: [at(0), at(1)],
    };
    await db.prisma.$transaction((tx) => saveJudgements(tx, "one", [judged], at(1)));
    const second = await commitRound(db.prisma, health("ok"), {}, memo, at(2));
    expect(second.transitions).toEqual([{ signal: "kms.plugin.unhealthy", subject: "master-1/2", previous: "critical", state: "ok" }]);
    expect(await db.prisma.$transaction((tx) => loadJudgements(tx, "one"))).toEqual([{ ...judged, detail: "plugin ok" }]);
    expect(await db.prisma.signalState.findMany({ where: { cluster: "one" } })).toEqual([
      expect.objectContaining({ state: "ok", since: at(2), judged: "critical", judgedSince: at(1), streak: 2, handled: true }),
    ]);
    expect(await db.prisma.signalState.count({ where: { cluster: "one" } })).toBe(1);
  });

  it("gives a judged signal the store has not written a row of its own, read back as judged", async () => {
    const judged = {
      signal: "openbao.sealed",
      subject: "openbao",
      state: "absent",
      since: at(3),
      streak: 1,
      handled: false,
      detail: "no longer reported",
      onsets: [],
    };
    await db.prisma.$transaction((tx) => saveJudgements(tx, "rules-only", [judged], at(3)));
    expect(await db.prisma.$transaction((tx) => loadJudgements(tx, "rules-only"))).toEqual([judged]);
  });
});
