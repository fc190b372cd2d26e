import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import { applyRound } from "../rounds/apply-round";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { getIncident } from "../history/queries";
import { refreshSuspects } from "../members/membership";
import { inTransaction } from "../tx";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { addEvidence, listEvidence } from "./evidence";

// Evidence besides the signals (pasted output, log tails) changes an incident's suspects, is on its timeline, and
// keeps no secret. Real PostgreSQL.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
});
afterAll(async () => db.close());

const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 600 });
// What kube-apiserver's redacted health check says of any plugin failure: no cause in it.
const REDACTED = "master-0: keyID 1 error: rpc error: code = Unknown desc = kms provider is not healthy";
const MISSING_KEY =
  "Error making API request.\n\nURL: PUT https://openbao.openbao.svc:8200/v1/transit/decrypt/kubernetes\nCode: 400. Errors:\n\n* encryption key not found";

describe("evidence an incident gathers besides its signals", () => {
  it("re-ranks the suspects on pasted output, records it on the timeline, and hides the token in it", async () => {
    const id = (await applyRound(prisma, "pasted", [signal("kms.plugin.unhealthy", "master-0/1", "critical", REDACTED)], at(0), config)).opened[0];
    const before = (await getIncident(prisma, id))!.suspects;
    expect(before[0]?.id).not.toBe("transit-key-deleted");
    const kept = await inTransaction(prisma, async (tx) => {
      const added = await addEvidence(
        tx,
        id,
        {
          kind: "pasted",
          source: "the output pasted by alice",
          actor: "alice",
          texts: [`token hvs.CAESIJ7mXq3kzQ2b8Yd0pLr6WnT4gH5sVxA1cE9uF0oKiZ3a\n${MISSING_KEY}`],
        },
        at(30),
      );
      await refreshSuspects(tx, id, at(30), "alice");
      return added;
    });
    expect(kept.classes.map((c) => c.id)).toContain("transit-key-not-found");
    expect(kept.hidden).toBe(1);
    const after = (await getIncident(prisma, id))!;
    const top = after.suspects[0];
    expect(after.suspects.slice(0, 2).map((s) => s.id)).toEqual(expect.arrayContaining([expect.stringMatching(/transit-key/)]));
    expect(top.supports?.join("\n")).toContain("on the output pasted by alice");
    const rows = await listEvidence(prisma, id);
    expect(rows).toHaveLength(1);
    expect(rows[0].texts.join("\n")).not.toContain("hvs.CAES");
    const events = await prisma.incidentEvent.findMany({
      where: { incidentId: id, kind: { in: ["evidence_added", "suspects_changed"] } },
      orderBy: { id: "asc" },
    });
    // The ranking at opening, then the paste and the ranking it changed.
    expect(events.map((e) => e.kind)).toEqual(["suspects_changed", "evidence_added", "suspects_changed"]);
    expect(events[1].summary).toContain("The Transit key does not exist");
  });

  it("replaces a keyed reading rather than counting it twice, and keeps an error line of a long log", async () => {
    const id = (await applyRound(prisma, "keyed", [signal("kms.plugin.unhealthy", "master-1/1", "critical", REDACTED)], at(0), config)).opened[0];
    const noise = Array.from({ length: 500 }, (_, i) => `I1128 02:00:${String(i % 60).padStart(2, "0")} handler.go:12] served encrypt in 3ms`);
    for (const n of [1, 2])
      await inTransaction(prisma, (tx) =>
        addEvidence(
          tx,
          id,
          {
            kind: "pod-log",
            source: "the logs of kube-system/kms-plugin-master-1",
            actor: "faultline",
            texts: [...noise, MISSING_KEY],
            key: "pod:kube-system/kms-plugin-master-1/kms-plugin",
            bytes: 1000 * n,
          },
          at(n),
        ),
      );
    const rows = await listEvidence(prisma, id);
    expect(rows).toHaveLength(1);
    expect(rows[0].bytes).toBe(2000);
    expect(rows[0].texts.length).toBeLessThanOrEqual(40);
    expect(rows[0].texts).toContain(MISSING_KEY.trim());
  });
});
