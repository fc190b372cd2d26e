import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabaseUrl } from "@/lib/env";
import { HANDLER_METHODS, scanAppRoutes } from "@/lib/http/route-table";
import { migratedDatabase } from "@/test/incident-db";
import { flushRefusals } from "./audit";
import { PEER_HEADER } from "./peer";

// Every route and method of the app x every identity, in proxy mode (the easiest way to be each role): the
// server's answer is 401/403 exactly when the role is short. The expected role is written here, by hand; a
// route or method the app serves that this table lacks fails the test, so a new route cannot go unchecked.

const root = path.resolve(import.meta.dirname, "../..");
type Need = "public" | "machine" | "viewer" | "responder" | "admin";

const HANDLERS: Record<string, Partial<Record<string, Need>>> = {
  "/api/healthz": { GET: "public" },
  "/api/readyz": { GET: "public" },
  "/metrics": { GET: "machine" },
  "/api/v1/alerts/alertmanager": { POST: "machine" },
  "/api/v1/blast-radius": { GET: "viewer" },
  "/api/v1/blast-radius/[component]": { GET: "viewer" },
  "/api/v1/catalog": { GET: "viewer" },
  "/api/v1/catalog/[id]": { GET: "viewer" },
  "/api/v1/clusters": { GET: "viewer" },
  "/api/v1/clusters/[name]/events": { GET: "viewer" },
  "/api/v1/clusters/[name]/health": { GET: "viewer" },
  "/api/v1/clusters/[name]/health/nodes/[node]": { GET: "viewer" },
  "/api/v1/demo": { GET: "viewer" },
  "/api/v1/fleet": { GET: "viewer" },
  "/api/v1/fleet/events": { GET: "viewer" },
  "/api/v1/demo/api-server": { POST: "admin" },
  "/api/v1/demo/scenarios/[id]": { POST: "admin", DELETE: "admin" },
  "/api/v1/incidents": { GET: "viewer" },
  "/api/v1/incidents/events": { GET: "viewer" },
  "/api/v1/incidents/[id]": { GET: "viewer" },
  "/api/v1/incidents/[id]/acknowledge": { POST: "responder" },
  "/api/v1/incidents/[id]/evidence": { GET: "viewer", POST: "responder" },
  "/api/v1/incidents/[id]/answers": { POST: "responder" },
  "/api/v1/incidents/[id]/export": { GET: "viewer" },
  "/api/v1/incidents/[id]/logs": { GET: "viewer", POST: "responder" },
  "/api/v1/incidents/[id]/notes": { POST: "responder" },
  "/api/v1/incidents/[id]/resolve": { POST: "responder" },
  "/api/v1/incidents/[id]/runbook-sessions": { POST: "responder" },
  "/api/v1/incidents/[id]/runbook-sessions/[sid]/steps": { POST: "responder" },
  "/api/v1/runbooks": { GET: "viewer" },
  "/api/v1/runbooks/[id]": { GET: "viewer" },
  "/api/v1/audit": { GET: "admin" },
  "/api/v1/audit/export": { GET: "admin" },
  "/auth/start": { GET: "public" },
  "/auth/callback": { GET: "public" },
  "/api/v1/auth/signout": { POST: "public" },
};
const PAGES: Record<string, Need> = {
  "/": "viewer",
  "/audit": "admin",
  "/auth/signin": "public",
  "/blast-radius": "viewer",
  "/blast-radius/[component]": "viewer",
  "/catalog": "viewer",
  "/catalog/[id]": "viewer",
  "/clusters/[name]": "viewer",
  "/demo": "viewer",
  "/fleet": "viewer",
  "/health": "viewer",
  "/incidents": "viewer",
  "/incidents/[id]": "viewer",
  "/runbooks": "viewer",
  "/runbooks/[id]": "viewer",
  "/runbooks/[id]/print": "viewer",
};

const PROXY = "127.0.0.1";
const who = (user: string, groups: string) => ({ [PEER_HEADER]: PROXY, "x-forwarded-email": user, "x-forwarded-groups": groups });
const IDENTITIES: { name: string; headers: Record<string, string>; rank: number; status?: number }[] = [
  { name: "from outside the proxy", headers: { ...who("mallory@example.org", "sre-leads"), [PEER_HEADER]: "192.0.2.7" }, rank: -1, status: 403 },
  { name: "without a peer address", headers: { "x-forwarded-email": "mallory@example.org", "x-forwarded-groups": "sre-leads" }, rank: -1, status: 403 },
  { name: "signed out", headers: { [PEER_HEADER]: PROXY }, rank: -1, status: 401 },
  { name: "signed in, no role", headers: who("nobody@example.org", "marketing"), rank: -1, status: 403 },
  { name: "as the rules", headers: who("faultline", "sre-leads"), rank: -1, status: 403 },
  { name: "viewer", headers: who("vera@example.org", "staff"), rank: 0 },
  { name: "responder", headers: who("rosa@example.org", "sre,staff"), rank: 1 },
  { name: "admin", headers: who("adam@example.org", "sre-leads"), rank: 2 },
];
const RANK: Record<Need, number> = { public: -1, machine: -1, viewer: 0, responder: 1, admin: 2 };

let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  db = await migratedDatabase();
  Object.assign(process.env, {
    FAULTLINE_AUTH: "proxy",
    FAULTLINE_PROXY_SOURCES: `${PROXY}/32`,
    FAULTLINE_ROLE_GROUPS: JSON.stringify({ admin: ["sre-leads"], responder: ["sre"], viewer: ["staff"] }),
  });
  setDatabaseUrl(db.url); // also drops the cached environment, so the variables above are read
});
afterAll(async () => {
  for (const name of ["FAULTLINE_AUTH", "FAULTLINE_PROXY_SOURCES", "FAULTLINE_ROLE_GROUPS"]) delete process.env[name];
  await db.close();
});

// Values that reach no real object: an action that passes the role check ends in a 4xx of the domain, not a change.
const VALUES: Record<string, string> = { id: "987654", sid: "987654", name: "no-such-cluster", component: "no-such-component" };
const concrete = (pattern: string) => pattern.replace(/\[(\w+)\]/g, (_, name: string) => VALUES[name] ?? "x");

async function call(pattern: string, method: string, headers: Record<string, string>): Promise<number> {
  const mod = (await import(path.join(root, "app", pattern, "route.ts"))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
  const params = Object.fromEntries([...pattern.matchAll(/\[(\w+)\]/g)].map((m) => [m[1], VALUES[m[1]] ?? "x"]));
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method) ? "{}" : undefined;
  const request = new NextRequest(`http://127.0.0.1:3000${concrete(pattern)}`, { method, body, headers: { "content-type": "application/json", ...headers } });
  try {
    const response = await mod[method](request, { params: Promise.resolve(params) });
    await response.body?.cancel();
    // Each call its own window of refusals, so every one is itemised (past ITEMISED a window counts the rest by status).
    await flushRefusals();
    return response.status;
  } catch {
    return 500; // a fault past the role check (no demo cluster in this test) is still "not refused"
  }
}

describe("who may call what", () => {
  const specs = scanAppRoutes(path.join(root, "app"));

  it("names the role of every route, method and page the app serves", () => {
    const served = specs.flatMap((s) =>
      s.kind === "page" ? [`PAGE ${s.pattern}`] : s.allow.filter((m) => m !== "HEAD" && m !== "OPTIONS").map((m) => `${m} ${s.pattern}`),
    );
    const table = [...Object.entries(HANDLERS).flatMap(([p, ms]) => Object.keys(ms).map((m) => `${m} ${p}`)), ...Object.keys(PAGES).map((p) => `PAGE ${p}`)];
    expect(served.sort()).toEqual(table.sort());
  });

  it("answers 401/403 exactly when the caller's role is short, on every route handler", async () => {
    const wrong: string[] = [];
    for (const spec of specs.filter((s) => s.kind === "handler")) {
      for (const method of HANDLER_METHODS.filter((m) => HANDLERS[spec.pattern]?.[m])) {
        const need = HANDLERS[spec.pattern][method]!;
        for (const id of IDENTITIES) {
          const status = await call(spec.pattern, method, id.headers);
          const allowed = id.rank >= RANK[need];
          const ok = allowed ? status !== 401 && status !== 403 : status === (id.status ?? 403);
          if (!ok) wrong.push(`${method} ${spec.pattern} ${id.name}: ${status} (needs ${need})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);

  it("has every page ask for its role first", () => {
    for (const spec of specs.filter((s) => s.kind === "page" && PAGES[s.pattern] !== "public")) {
      const dir = path.join(root, "app", ...spec.pattern.split("/").filter(Boolean));
      const file = [dir, ...["(overview)"].map((g) => path.join(dir, g))]
        .map((d) => path.join(d, "page.tsx"))
        .find((f) => {
          try {
            return readFileSync(f) !== undefined;
          } catch {
            return false;
          }
        });
      const source = readFileSync(file!, "utf8");
      const body = /export default async function \w+\([^)]*\)[^{]*\{\s*([^\n]*)/.exec(source);
      expect(body?.[1], spec.pattern).toBe(`await pageAccess("${PAGES[spec.pattern]}");`);
    }
  });

  it("checks the role above every loading state, which would otherwise answer 200 before a page's 401 or 403", () => {
    const loading = readdirSync(path.join(root, "app"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("loading.tsx"));
    expect(loading.length).toBeGreaterThan(0);
    for (const file of loading) {
      const layout = readFileSync(path.join(root, "app", path.dirname(file), "layout.tsx"), "utf8");
      expect(layout, file).toContain('await pageAccess("viewer");');
    }
  });

  it("records refused changes and refused reads in the audit log, with who, their role, what and from where", async () => {
    const { prisma } = db;
    const rows = await prisma.auditEntry.findMany({ where: { route: "/api/v1/incidents/[id]/acknowledge" }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.actor, r.role, r.status, r.action, r.objectType, r.objectId, r.remote, r.count])).toEqual([
      ["(unknown)", "anonymous", 403, "incident.acknowledge", "incident", "987654", "192.0.2.7", 1],
      ["(unknown)", "anonymous", 403, "incident.acknowledge", "incident", "987654", null, 1],
      ["(unknown)", "anonymous", 401, "incident.acknowledge", "incident", "987654", PROXY, 1],
      ["nobody@example.org", "none", 403, "incident.acknowledge", "incident", "987654", PROXY, 1],
      ["faultline", "none", 403, "incident.acknowledge", "incident", "987654", PROXY, 1],
      ["vera@example.org", "viewer", 403, "incident.acknowledge", "incident", "987654", PROXY, 1],
      ["rosa@example.org", "responder", 404, "incident.acknowledge", "incident", "987654", PROXY, 1],
      ["adam@example.org", "admin", 404, "incident.acknowledge", "incident", "987654", PROXY, 1],
    ]);
    expect(rows.find((r) => r.actor === "vera@example.org")?.detail).toBe("vera@example.org is a viewer; this needs the responder role");
    // A read refused is recorded too: the viewer's look at the audit log, under their role.
    const read = await prisma.auditEntry.findMany({ where: { route: "/api/v1/audit", actor: "vera@example.org" } });
    expect(read.map((r) => [r.method, r.role, r.status, r.detail])).toEqual([
      ["GET", "viewer", 403, "vera@example.org is a viewer; this needs the admin role"],
    ]);
    // A proxy user's first request is their sign-in.
    const signins = await prisma.auditEntry.findMany({ where: { action: "auth.signin" } });
    expect(signins.map((r) => `${r.actor} ${r.role}`).sort()).toEqual(["adam@example.org admin", "rosa@example.org responder", "vera@example.org viewer"]);
    // Append-only: the database itself refuses to rewrite or remove an entry.
    await expect(prisma.$executeRawUnsafe(`UPDATE "audit_log" SET "actor" = 'someone-else'`)).rejects.toThrow(/audit_log is append-only: UPDATE refused/);
    await expect(prisma.$executeRawUnsafe(`DELETE FROM "audit_log"`)).rejects.toThrow(/audit_log is append-only: DELETE refused/);
    await expect(prisma.$executeRawUnsafe('TRUNCATE "audit_log"')).rejects.toThrow(/audit_log is append-only: TRUNCATE refused/);
    expect(await prisma.auditEntry.count({ where: { actor: "someone-else" } })).toBe(0);
  });
});
