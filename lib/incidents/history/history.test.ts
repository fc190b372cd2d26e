import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/v1/incidents/route";
import type { PrismaClient } from "@/lib/db/generated/client";
import { setDatabaseUrl } from "@/lib/env";
import { parseRulesConfig } from "@/lib/incident-rules-config";
import { announceIncidents } from "@/lib/live/bus";
import { at, migratedDatabase, signal } from "@/test/incident-db";
import { acknowledgeIncident, addNote, resolveIncident } from "../members/actions";
import { applyRound } from "../rounds/apply-round";
import { countIncidentsByStatus, foldCounts } from "./counts";
import type { IncidentHistory } from "./history";
import { listIncidents } from "./queries";
import { IncidentListQuery } from "../schemas";

// The incident history through GET /api/v1/incidents on a real PostgreSQL: pages by cursor, search, time range
// and counts, as a browser or a script paging through a year of incidents sees them.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let prisma: PrismaClient;
beforeAll(async () => {
  db = await migratedDatabase();
  prisma = db.prisma;
  setDatabaseUrl(db.url);
});
afterAll(async () => db.close());

const list = async (query: string) => {
  const response = await listRoute(new NextRequest(`http://127.0.0.1:3000/api/v1/incidents?${query}`));
  return { status: response.status, body: (await response.json()) as IncidentHistory & { fields?: Record<string, string[]> } };
};

/** Every page of a list, following `next`; `between` runs after each page (rows changing while someone pages). */
async function walk(query: string, between: (page: number) => Promise<void> = async () => undefined) {
  const seen: { id: number; status: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const { status, body } = await list(`${query}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(status).toBe(200);
    seen.push(...body.incidents.map((i) => ({ id: i.id, status: i.status })));
    await between(page);
    cursor = body.next;
    if (!cursor) return seen;
  }
  throw new Error("more than 100 pages");
}

let seq = 0;
async function incident(
  cluster: string,
  status: string,
  severity: string,
  openedAt: Date,
  extra: { title?: string; subject?: string; reopenedAt?: Date } = {},
) {
  seq++;
  const subject = extra.subject ?? `node-${seq}/kms-a`;
  const row = await prisma.incident.create({
    data: {
      cluster,
      memberKey: `${cluster}\u001fkms.plugin.unhealthy\u001f${subject}\u001f${seq}`,
      signal: "kms.plugin.unhealthy",
      subject,
      title: extra.title ?? `KMS plugin unhealthy (${subject})`,
      severity,
      status,
      source: "signal",
      openedAt,
      reopenedAt: extra.reopenedAt,
      resolvedAt: status === "resolved" ? new Date(openedAt.getTime() + 60_000) : null,
      lastSeenAt: openedAt,
      updatedAt: openedAt,
    },
  });
  return row.id;
}

describe("pages of the incident list", () => {
  const STATUSES = ["open", "acknowledged", "resolved"];
  const SEVERITIES = ["critical", "warning", "info"];
  const ids: number[] = [];
  beforeAll(async () => {
    // 45 incidents in cluster "pages": every status and severity, several opened at the same millisecond (ties
    // broken by id), one reopened (ordered by its reopening).
    for (let i = 0; i < 45; i++)
      ids.push(
        await incident("pages", STATUSES[i % 3], SEVERITIES[Math.floor(i / 3) % 3], at(Math.floor(i / 4) * 60), i === 44 ? { reopenedAt: at(10_000) } : {}),
      );
  });

  it("keeps the order: open, acknowledged, resolved; most severe; newest (opened or reopened) first; ties by id", async () => {
    const rows = await prisma.incident.findMany({ where: { cluster: "pages" } });
    const rank = (r: (typeof rows)[number]) => [STATUSES.indexOf(r.status), SEVERITIES.indexOf(r.severity), -(r.reopenedAt ?? r.openedAt).getTime(), -r.id];
    const expected = rows
      .sort((a, b) => {
        const [x, y] = [rank(a), rank(b)];
        return x.reduce((d, v, i) => d || v - y[i], 0);
      })
      .map((r) => r.id);
    expect((await walk("cluster=pages&limit=7")).map((r) => r.id)).toEqual(expected);
    expect((await list("cluster=pages&limit=500")).body.incidents.map((i) => i.id)).toEqual(expected);
    expect((await list("cluster=pages&limit=45")).body.next).toBeNull();
  });

  it("shows every unchanged row exactly once while others change status between pages; a changed row is where it now belongs", async () => {
    const before = (await walk("cluster=pages&limit=6")).map((r) => r.id);
    const seenOnFirst = before.slice(0, 6);
    // A resolved critical one, which reopening puts first of all.
    const rows = await prisma.incident.findMany({ where: { cluster: "pages", status: "resolved", severity: "critical" } });
    const later = rows.find((r) => r.id !== ids[44])!.id;
    const changed = new Set<number>();
    const seen = await walk("cluster=pages&limit=6", async (page) => {
      if (page === 0) {
        // One already shown is resolved (it moves down, and shows again, resolved); one not reached yet is
        // acknowledged or reopened upward (it moves above the cursor: the first page shows it now).
        const shown = seenOnFirst.find((id) => id !== ids[44])!;
        const row = await prisma.incident.findUniqueOrThrow({ where: { id: shown } });
        if (row.status !== "resolved") await resolveIncident(prisma, shown, { actor: "ana" }, at(20_000));
        await prisma.incident.update({ where: { id: later }, data: { status: "open", resolvedAt: null, reopenedAt: at(30_000) } });
        changed.add(shown).add(later);
      }
    });
    const unchanged = before.filter((id) => !changed.has(id));
    const count = (id: number) => seen.filter((r) => r.id === id).length;
    for (const id of unchanged) expect(count(id), `incident ${id}`).toBe(1);
    // The resolved one shows twice: open on page 1, resolved further down; the reopened one moved up past the cursor.
    const resolvedOne = [...changed][0];
    expect(seen.filter((r) => r.id === resolvedOne).map((r) => r.status)).toEqual(["open", "resolved"]);
    expect(count(later)).toBe(0);
    expect((await list("cluster=pages&limit=1")).body.incidents[0].id).toBe(later);
  });

  it("refuses a cursor it did not give with a 400 naming the field", async () => {
    const good = (await list("cluster=pages&limit=2")).body.next!;
    for (const bad of ["x", `${good}x`, Buffer.from("9.0.1").toString("base64url"), "%00", "a".repeat(5000)]) {
      const { status, body } = await list(`cluster=pages&cursor=${bad}`);
      expect([status, body.fields]).toEqual([400, { cursor: ["is not a cursor of this list (pass the next value of an answer as it was given)"] }]);
    }
  });
});

describe("search and time range", () => {
  const config = parseRulesConfig({ openAfterObservations: 2, groupWindowSeconds: 120 });
  let sealed = 0;
  beforeAll(async () => {
    const firing = [signal("openbao.sealed", "openbao", "critical", "sealed (503)"), signal("kms.plugin.unhealthy", "node-1/kms-a", "ok")];
    await applyRound(prisma, "search", firing, at(0), config);
    sealed = (await applyRound(prisma, "search", firing, at(2), config)).opened[0];
    await incident("search", "resolved", "warning", at(-86_400 * 40), { title: "Quasar relay unreachable (relay)", subject: "relay" });
  });
  const found = async (q: string, extra = "") => {
    const ids = (await list(`cluster=search&q=${encodeURIComponent(q)}${extra}`)).body.incidents.map((i) => i.id);
    // Both ways of searching (all matches from the index, sorted; or the list's index walked) give the same page.
    const filter = IncidentListQuery.parse({ cluster: "search", q, ...Object.fromEntries(new URLSearchParams(extra)) });
    for (const searchPlan of ["gather", "walk"] as const)
      expect(
        (await listIncidents(prisma, { ...filter, searchPlan })).map((i) => i.id),
        searchPlan,
      ).toEqual(ids);
    return ids;
  };

  it("finds incidents by title, suspect id and title, with prefixes, phrases, exclusions and `or`", async () => {
    expect(await found("sealed")).toEqual([sealed]);
    expect(await found("seal")).toEqual([sealed]);
    expect(await found("openbao-sealed")).toEqual([sealed]); // the suspect's catalog id
    expect(await found('"openbao sealed"')).toEqual([sealed]);
    expect(await found("quasar or sealed")).toHaveLength(2);
    expect(await found("openbao -sealed")).toEqual([]);
    expect(await found("unreachable")).toHaveLength(1);
    expect(await found("nothing-like-this")).toEqual([]);
  });

  it("finds an incident by a member's subject once it joins, written any way", async () => {
    for (const q of ["node-1/kms-a", "kms-a", "node-1", "node-1/kms", "1/kms-a"]) expect(await found(q), q).toEqual([]);
    const joining = [
      signal("openbao.sealed", "openbao", "critical", "sealed (503)"),
      signal("kms.plugin.unhealthy", "node-1/kms-a", "critical", "connection refused"),
    ];
    await applyRound(prisma, "search", joining, at(30), config);
    expect((await applyRound(prisma, "search", joining, at(32), config)).joined).toEqual([sealed]);
    // As the monitor's round announces what it joined (judge.ts): the API serves no list from before it.
    announceIncidents([sealed]);
    for (const q of ["node-1/kms-a", "kms-a", "node-1", "node-1/kms", "1/kms-a", "NODE-1/KMS-A"]) expect(await found(q), q).toEqual([sealed]);
  });

  it("finds an incident by a note once it is written, and by an acknowledgement's or a resolution's words", async () => {
    expect(await found("quarterly rotation")).toEqual([]);
    await addNote(prisma, sealed, { actor: "ana", text: "Unsealed with 3 key holders\nafter the quarterly rotation" }, at(40));
    expect(await found("quarterly rotation")).toEqual([sealed]);
    expect(await found('"key holders after"')).toEqual([sealed]);
    await acknowledgeIncident(prisma, sealed, { actor: "ana", note: "paging storage" }, at(41));
    expect(await found("storage")).toEqual([sealed]);
    await resolveIncident(prisma, sealed, { actor: "ana", resolution: "auto-unseal restored" }, at(42));
    expect(await found("auto-unseal")).toEqual([sealed]);
  });

  it("takes hostile search text without a 500: operators, NUL, quotes, 500 characters; more is a 400", async () => {
    for (const q of ["'", "!!", "a & | b", ":*", "\u0000sealed", '"""', "<->", "\\", "(".repeat(500), "sealed' | 'x"]) {
      const { status } = await list(`cluster=search&q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
    }
    expect(await found("\u0000sealed")).toEqual([sealed]);
    const { status, body } = await list(`q=${"a".repeat(501)}`);
    expect([status, body.fields]).toEqual([400, { q: ["at most 500 characters"] }]);
  });

  it("limits the list to a time range on when incidents opened or reopened; a day as `to` includes that day", async () => {
    const day = at(-86_400 * 40)
      .toISOString()
      .slice(0, 10);
    expect((await found("quasar", `&from=${day}&to=${day}`)).length).toBe(1);
    expect((await found("quasar", `&to=${day}T00:00:00Z`)).length).toBe(0);
    expect((await found("quasar", `&from=${at(-86_400 * 39).toISOString()}`)).length).toBe(0);
    const bad = await list(`from=2026-02-30&to=yesterday`);
    expect([bad.status, Object.keys(bad.body.fields!)]).toEqual([400, ["from", "to"]]);
    for (const edge of ["to=9999-12-31", "from=1969-12-31T23:59:59Z", "to=+010000-01-01T00:00:00Z", "from=2026-03-01T12:00:00"]) {
      const { status } = await list(edge);
      expect(status, edge).toBe(400);
    }
    expect((await list("from=1970-01-01&to=9999-12-30T00:00:00Z")).status).toBe(200);
    const reversed = await list(`from=2026-03-02&to=2026-03-01`);
    expect([reversed.status, reversed.body.fields]).toEqual([400, { to: ["must be after from"] }]);
  });
});

describe("counts per status", () => {
  it("follow incidents opening, being acknowledged and resolved, and survive folding", async () => {
    const counts = () => countIncidentsByStatus(prisma, ["counted"]);
    expect(await counts()).toEqual({ open: 0, acknowledged: 0, resolved: 0 });
    const a = await incident("counted", "open", "critical", at(0));
    const b = await incident("counted", "open", "warning", at(1));
    await incident("counted", "resolved", "info", at(2));
    expect(await counts()).toEqual({ open: 2, acknowledged: 0, resolved: 1 });
    await acknowledgeIncident(prisma, a, { actor: "ana" }, at(3));
    await resolveIncident(prisma, b, { actor: "ana" }, at(4));
    expect(await counts()).toEqual({ open: 0, acknowledged: 1, resolved: 2 });
    expect((await list("cluster=counted")).body.counts).toEqual({ open: 0, acknowledged: 1, resolved: 2 });
    const everywhere = await countIncidentsByStatus(prisma);
    const total = await prisma.incident.groupBy({ by: ["status"], _count: true });
    expect(everywhere).toEqual(Object.fromEntries(["open", "acknowledged", "resolved"].map((s) => [s, total.find((t) => t.status === s)?._count ?? 0])));
    await foldCounts(prisma);
    expect(await prisma.incidentStatusCount.count({ where: { cluster: "counted" } })).toBe(2);
    expect(await countIncidentsByStatus(prisma)).toEqual(everywhere);
  });
});
