import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/audit/export/route";
import { GET as listRoute } from "@/app/api/v1/audit/route";
import { setDatabaseUrl } from "@/lib/env";
import { migratedDatabase } from "@/test/incident-db";
import { flushRefusals, recordAudit } from "./audit";
import { noteRefusal } from "./refusals";

// The audit log as an admin reads it (FAULTLINE_AUTH=none: the local admin), against a real PostgreSQL.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 10, minute));
beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  const base = { method: "POST", route: "/api/v1/incidents/[id]/acknowledge", action: "incident.acknowledge", objectType: "incident", remote: "10.0.0.5" };
  for (let i = 0; i < 5; i++) await recordAudit({ ...base, at: at(i), actor: "rosa@example.org", role: "responder", objectId: String(i + 1), status: 200 });
  await recordAudit({ ...base, at: at(10), actor: "vera@example.org", role: "viewer", objectId: "3", status: 403, detail: "vera is a viewer" });
  await recordAudit({
    at: at(11),
    actor: '=HYPERLINK("http://evil")',
    method: "POST",
    route: "/api/v1/demo/api-server",
    action: "demo.api-server",
    status: 403,
  });
});
afterAll(async () => db.close());

const get = async (path: string) => {
  const res = await (path.includes("/export") ? exportRoute : listRoute)(new NextRequest(`http://127.0.0.1:3000${path}`));
  return res;
};

describe("the audit log", () => {
  it("filters by who, action, outcome and time, and pages newest first", async () => {
    const refused = await (await get("/api/v1/audit?outcome=refused")).json();
    expect(refused.entries.map((e: { actor: string }) => e.actor)).toEqual(['=HYPERLINK("http://evil")', "vera@example.org"]);
    const rosa = await (await get("/api/v1/audit?actor=ROSA&from=2026-11-23T10:01Z&to=2026-11-23T10:03Z")).json();
    expect(rosa.entries.map((e: { objectId: string }) => e.objectId)).toEqual(["4", "3", "2"]);
    const first = await (await get("/api/v1/audit?action=incident.&limit=4")).json();
    expect([first.total, first.entries.length]).toEqual([6, 4]);
    const second = await (await get(`/api/v1/audit?action=incident.&limit=4&before=${first.next}`)).json();
    expect(second.entries.map((e: { objectId: string }) => e.objectId)).toEqual(["2", "1"]);
    expect(second.next).toBeUndefined();
    const bad = await get("/api/v1/audit?outcome=maybe&from=yesterday");
    expect([bad.status, (await bad.json()).fields]).toEqual([
      400,
      { outcome: ["must be allowed, refused or failed"], from: [expect.stringMatching(/must be a date/)] },
    ]);
  });

  it("exports JSON and CSV, a formula-looking cell defused", async () => {
    const json = await get("/api/v1/audit/export?outcome=refused");
    expect(json.headers.get("content-disposition")).toMatch(/^attachment; filename="faultline-audit-.*\.json"$/);
    expect((await json.json()).entries).toHaveLength(2);
    const csv = await get("/api/v1/audit/export?format=csv&outcome=refused");
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("id,at,lastAt,count,actor,role,method,route,action,objectType,objectId,remote,status,detail");
    expect(lines[1]).toContain(`,,1,"'=HYPERLINK(""http://evil"")",,POST,/api/v1/demo/api-server,demo.api-server,,,,403,`);
    expect(lines[2]).toContain(
      ",vera@example.org,viewer,POST,/api/v1/incidents/[id]/acknowledge,incident.acknowledge,incident,3,10.0.0.5,403,vera is a viewer",
    );
  });

  it("shows refusals alike as one row with how many and from when to when, and sums the requests its entries stand for", async () => {
    const forged = {
      actor: "(unknown)",
      role: "anonymous",
      method: "POST",
      route: "/api/v1/incidents/[id]/notes",
      action: "edge.cross-site",
      remote: "192.0.2.9",
    };
    for (let i = 0; i < 3; i++) noteRefusal({ ...forged, status: 403, reason: "cross-site", detail: "cross-site request refused: Origin is null" }, at(20 + i));
    expect(await flushRefusals()).toBe(1);
    const page = await (await get("/api/v1/audit?action=edge.")).json();
    expect(page.entries.map((e: { count: number; at: string; lastAt: string; role: string }) => [e.count, e.at, e.lastAt, e.role])).toEqual([
      [3, at(20).toISOString(), at(22).toISOString(), "anonymous"],
    ]);
    expect([page.total, page.requests]).toEqual([1, 3]);
    // Newest first by when it happened, though written after the entries of minutes 0 to 11.
    const all = await (await get("/api/v1/audit?limit=2")).json();
    expect(all.entries.map((e: { action: string }) => e.action)).toEqual(["edge.cross-site", "demo.api-server"]);
    const rest = await (await get(`/api/v1/audit?limit=100&before=${all.next}`)).json();
    expect(rest.entries).toHaveLength(6);
  });
});
