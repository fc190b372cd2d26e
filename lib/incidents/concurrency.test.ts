import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/db/generated/client";
import { AlertmanagerPayload } from "./alerts/alertmanager";
import { applyRound } from "./rounds/apply-round";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { receiveDelivery } from "./alerts/webhook";
import { at, migratedDatabase, signal } from "@/test/incident-db";

// Several writers (each its own connection pool, as separate server processes would be) race to open an
// incident for one fingerprint. The partial unique indexes let one win; the others join its incident.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let clients: PrismaClient[];
const WRITERS = 6;
beforeAll(async () => {
  db = await migratedDatabase();
  clients = Array.from({ length: WRITERS }, () => new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url, max: 2 }) }));
  await Promise.all(clients.map((c) => c.$connect()));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.$disconnect()));
  await db.close();
});

const config = parseRulesConfig({ openAfterObservations: 1 });
const payload = (cluster: string) =>
  AlertmanagerPayload.parse({
    version: "4",
    groupKey: '{}:{alertname="OpenBaoSealed"}',
    status: "firing",
    receiver: "faultline",
    externalURL: "http://alertmanager:9093",
    alerts: [
      {
        status: "firing",
        labels: { alertname: "OpenBaoSealed", cluster, signal: "openbao.sealed", subject: "openbao", severity: "critical" },
        annotations: { summary: "OpenBao is sealed" },
        startsAt: "2026-11-22T12:00:00Z",
        fingerprint: `fp-${cluster}`,
      },
    ],
  });

async function counts(cluster: string) {
  const incidents = await db.prisma.incident.count({ where: { cluster } });
  const open = await db.prisma.incidentMember.count({ where: { cluster, open: true } });
  const alerts = await db.prisma.incidentEvent.count({ where: { kind: "alert_received", incident: { cluster } } });
  return { incidents, open, alerts };
}

describe("parallel writers", () => {
  it("open exactly one incident when every writer runs the same round at once", async () => {
    for (let round = 0; round < 5; round++) {
      const cluster = `race-${round}`;
      const outcomes = await Promise.all(clients.map((c) => applyRound(c, cluster, [signal("openbao.sealed", "openbao", "critical")], at(round), config)));
      expect(await counts(cluster)).toEqual({ incidents: 1, open: 1, alerts: 0 });
      expect(outcomes.flatMap((o) => o.opened)).toHaveLength(1);
    }
  });

  it("make one incident and one event when the same alert is delivered by every writer at once", async () => {
    for (let round = 0; round < 5; round++) {
      const cluster = `alerts-${round}`;
      const outcomes = await Promise.all(clients.map(async (c) => (await receiveDelivery(c, payload(cluster), undefined, { now: at(round) })).outcomes));
      expect(await counts(cluster)).toEqual({ incidents: 1, open: 1, alerts: 1 });
      expect(
        outcomes
          .flat()
          .map((o) => o.result)
          .sort(),
      ).toEqual([...Array(WRITERS - 1).fill("duplicate"), "recorded"]);
    }
  });

  it("join the alert and the live signal for one fingerprint into one incident when they race", async () => {
    for (let round = 0; round < 5; round++) {
      const cluster = `mixed-${round}`;
      await Promise.all(
        clients.map((c, i) =>
          i % 2 === 0
            ? applyRound(c, cluster, [signal("openbao.sealed", "openbao", "critical")], at(round), config)
            : receiveDelivery(c, payload(cluster), undefined, { now: at(round) }),
        ),
      );
      expect(await counts(cluster)).toEqual({ incidents: 1, open: 1, alerts: 1 });
    }
  });
});
