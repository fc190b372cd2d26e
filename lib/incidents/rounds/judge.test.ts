import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { onIncidents, type IncidentsPush } from "@/lib/live/bus";
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
});
