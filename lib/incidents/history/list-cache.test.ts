import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/db/generated/client";
import { announceIncidents } from "@/lib/live/bus";
import { migratedDatabase } from "@/test/incident-db";
import { acknowledgeIncident } from "../members/actions";
import { openIncident, type MemberInput } from "../members/membership";
import { inTransaction } from "../tx";
import { LIST_TTL_MS, listIncidentHistoryShared } from "./list-cache";

// The incident list as many clients poll it, on a real PostgreSQL: one read for them all, and never a list from
// before a change once the change is announced (the incident code announces every committed write).

let db: Awaited<ReturnType<typeof migratedDatabase>>;

const member = (cluster: string, subject: string): MemberInput => ({
  cluster,
  signal: "kms.plugin.unhealthy",
  subject,
  source: "signal",
  state: "critical",
  detail: `${subject}: keyID 1 error: connection refused`,
  severity: "critical",
});

/** Opens an incident as the rules do, without telling anyone: what a writer that forgot to announce would leave. */
const openQuietly = (cluster: string, subject: string) =>
  inTransaction(db.prisma, async (tx) => (await openIncident(tx, [member(cluster, subject)], { now: new Date(), reason: "(test)" })).incidentId);

const ids = (list: { incidents: { id: number }[] }) => list.incidents.map((i) => i.id).sort((a, b) => a - b);

beforeAll(async () => {
  db = await migratedDatabase();
});

afterAll(async () => {
  await db.close();
});

describe("the incident list shared by its readers", () => {
  it("reads a list once for every request until incidents change, and again once it is LIST_TTL_MS old", async () => {
    const first = await openQuietly("east", "master-1/1");
    const now = Date.now();
    const asked = listIncidentHistoryShared(db.prisma, {}, now);
    expect(listIncidentHistoryShared(db.prisma, {}, now + 10)).toBe(asked);
    expect(ids(await asked)).toEqual([first]);
    // Another list is read on its own.
    expect(ids(await listIncidentHistoryShared(db.prisma, { cluster: ["west"] }, now))).toEqual([]);

    // Unannounced, a change waits for the bound; past it, the list is read again while the old one still answers,
    // and the requests after that read have the change.
    const second = await openQuietly("east", "master-2/1");
    expect(ids(await listIncidentHistoryShared(db.prisma, {}, now + 20))).toEqual([first]);
    expect(ids(await listIncidentHistoryShared(db.prisma, {}, now + LIST_TTL_MS))).toEqual([first]);
    let seen = ids(await listIncidentHistoryShared(db.prisma, {}, now + LIST_TTL_MS + 1));
    while (seen.length < 2) {
      await new Promise((r) => setTimeout(r, 10));
      seen = ids(await listIncidentHistoryShared(db.prisma, {}, now + LIST_TTL_MS + 1));
    }
    expect(seen).toEqual([first, second]);
  });

  it("never answers with a list from before a change that was announced", async () => {
    const now = Date.now();
    const open = await listIncidentHistoryShared(db.prisma, { status: ["open"] }, now);
    const [acked] = ids(open);
    expect(open.counts).toMatchObject({ open: 2, acknowledged: 0 });
    // acknowledgeIncident announces once its transaction has committed, as every writer does.
    await acknowledgeIncident(db.prisma, acked, { actor: "sre" });
    const after = await listIncidentHistoryShared(db.prisma, { status: ["open"] }, now);
    expect(ids(after)).not.toContain(acked);
    expect(after.counts).toMatchObject({ open: 1, acknowledged: 1 });
  });

  it("hands no request after an announcement a read that began before it", async () => {
    const now = Date.now();
    const before = listIncidentHistoryShared(db.prisma, {}, now);
    const third = await openQuietly("west", "master-3/1");
    announceIncidents([third]);
    const after = listIncidentHistoryShared(db.prisma, {}, now);
    expect(after).not.toBe(before);
    expect(ids(await after)).toContain(third);
    await before;
  });

  it("keeps no failed read: the next request asks the database again", async () => {
    // A client of a database that is not there: each read fails on its own.
    const gone = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url.replace(/\/[^/]*$/, "/no_such_database") }) });
    try {
      const failed = listIncidentHistoryShared(gone, {});
      await expect(failed).rejects.toThrow();
      const again = listIncidentHistoryShared(gone, {});
      expect(again).not.toBe(failed);
      await expect(again).rejects.toThrow();
    } finally {
      await gone.$disconnect();
    }
  });
});
