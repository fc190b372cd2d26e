import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { announceIncidents, onIncidents, type IncidentsPush } from "@/lib/live/bus";
import { commitRound, newMemo } from "@/lib/store/persist";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { judgeRound } from "./judge";

// A monitor round's hand-off on a real PostgreSQL: the store commits the round, the rules judge that commit,
// and open incident pages hear which incident changed, once it is written.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
});
afterAll(async () => db.close());

const config = parseRulesConfig({ openAfterObservations: 2, openAfterSeconds: 3600 });
const health = (state: "ok" | "critical") => ({ name: "hand-off", signals: [signal("openbao.sealed", "openbao", state, `sealed: ${state}`)] }) as ClusterHealth;

describe("judging what the store committed", () => {
  it("opens an incident after two committed rounds and announces it; the rules' memory is in the signal's row", async () => {
    const memo = newMemo();
    const heard: IncidentsPush[] = [];
    const stop = onIncidents((push) => heard.push(push));
    try {
      const first = await commitRound(db.prisma, health("critical"), {}, memo, at(0));
      expect(first.transitions).toHaveLength(1);
      expect(await judgeRound(db.prisma, first, config)).toBeUndefined();
      // The second round changes nothing in the store, and is still a round for the rules.
      const second = await commitRound(db.prisma, health("critical"), {}, memo, at(2));
      expect(second.transitions).toEqual([]);
      await judgeRound(db.prisma, second, config);
      const incidents = await db.prisma.incident.findMany({ where: { cluster: "hand-off" } });
      expect(incidents).toHaveLength(1);
      expect(heard.at(-1)?.ids).toContain(incidents[0].id);
      expect(await db.prisma.signalState.findMany({ where: { cluster: "hand-off" } })).toEqual([
        expect.objectContaining({
          signal: "openbao.sealed",
          state: "critical",
          since: at(0),
          judged: "critical",
          judgedSince: at(0),
          streak: 2,
          handled: true,
        }),
      ]);
    } finally {
      stop();
    }
  });

  it("does not judge a healthy cluster's quiet round again until a signal or an incident changes", async () => {
    // The real client, counting the transactions the rules open (a quiet round is one per cluster and poll).
    let transactions = 0;
    const counted = new Proxy(db.prisma, {
      get: (target, key) => {
        if (key === "$transaction") transactions += 1;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const quietConfig = parseRulesConfig({ openAfterObservations: 2, openAfterSeconds: 3600, resolveAfterSeconds: 10 });
    const named = (state: "ok" | "critical") => ({ ...health(state), name: "quiet" }) as ClusterHealth;
    const memo = newMemo();
    const round = async (state: "ok" | "critical", s: number) => {
      const before = transactions;
      await judgeRound(counted, await commitRound(db.prisma, named(state), {}, memo, at(s)), quietConfig);
      return transactions - before;
    };
    // Judged once: quiet (nothing to remember of an ok signal, nothing decided, no incident); the same again is not.
    expect(await round("ok", 100)).toBe(1);
    expect(await round("ok", 102)).toBe(0);
    expect(await round("ok", 104)).toBe(0);
    // An incident change anywhere is judged again, once.
    announceIncidents([]);
    expect(await round("ok", 106)).toBe(1);
    expect(await round("ok", 108)).toBe(0);

    // A failure opens its incident on the same round as ever; while it is unresolved every round is judged, so it
    // resolves once healthy for 10 s, and the rounds after that are quiet again.
    expect(await round("critical", 112)).toBe(1);
    await round("critical", 114);
    const [incident] = await db.prisma.incident.findMany({ where: { cluster: "quiet" } });
    expect(incident).toMatchObject({ status: "open" });
    for (let s = 116; s <= 126; s += 2) expect(await round("ok", s)).toBe(1);
    expect(await db.prisma.incident.findUniqueOrThrow({ where: { id: incident.id } })).toMatchObject({ status: "resolved" });
    await round("ok", 128);
    expect(await round("ok", 130)).toBe(0);
  });
});
