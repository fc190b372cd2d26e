import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushRefusals, startAuditWriter } from "@/lib/auth/audit";
import { stampPeer } from "@/lib/auth/peer";
import { ITEMISED } from "@/lib/auth/refusals";
import { PrismaClient } from "@/lib/db/generated/client";
import { setDatabaseUrl } from "@/lib/env";
import { freePort } from "@/lib/free-port";
import { OWN_BODY_ROUTES } from "@/lib/incidents/alerts/webhook-body";
import { getMetrics } from "@/lib/metrics";
import { migratedDatabase } from "@/test/incident-db";
import { API_BODY_LIMIT } from "./body-limit";
import { createEdge } from "./edge";
import { allowedHosts } from "./forgery";
import { machineRoutes } from "./machine-token";
import { createRouteLabeler } from "./route-label";
import { scanAppRoutes } from "./route-table";

// Every refusal reaches the audit log, counted whole and bounded: the real edge on loopback (peer stamped as
// scripts/start.ts does) in front of the app's real route handlers, in proxy mode so that each request says who
// sends it, against a real PostgreSQL. Pages are not rendered here (Next.js is not running); their refusals go through
// the same gate (lib/auth/page.ts) and are checked by e2e/audit-refusals.spec.ts.

const root = path.resolve(import.meta.dirname, "../..");
const specs = new Map(scanAppRoutes(path.join(root, "app")).map((s) => [s.pattern, s]));
const label = createRouteLabeler({
  staticRoutes: [...specs.keys()].filter((p) => !p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/[-/]/g, "\\$&")}(?:/)?$` })),
  dynamicRoutes: [...specs.keys()].filter((p) => p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/\[[^\]]+\]/g, "([^/]+?)")}(?:/)?$` })),
});
const WEBHOOK_TOKEN = "webhook-token-0123456789abcdef";
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

let db: Awaited<ReturnType<typeof migratedDatabase>>;
let server: Server;
let port: number;
let own: string;

/** Next's part, played by the real route handlers: a Request from the socket's request, the Response written back. */
async function routeHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url!, own);
  const pattern = label(url.pathname);
  const body = Buffer.concat(await req.toArray());
  if (specs.get(pattern)?.kind !== "handler") return void res.end("a page");
  const mod = (await import(path.join(root, "app", pattern, "route.ts"))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
  const names = [...pattern.matchAll(/\[(\w+)\]/g)].map((m) => m[1]);
  const values = new RegExp(`^${pattern.replace(/\[\w+\]/g, "([^/]+)")}$`).exec(url.pathname)?.slice(1) ?? [];
  const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i])]));
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const request = new NextRequest(url, { method: req.method, headers, body: body.length ? body : undefined });
  const response = await mod[req.method!](request, { params: Promise.resolve(params) });
  res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
  res.end(Buffer.from(await response.arrayBuffer()));
}

beforeAll(async () => {
  db = await migratedDatabase();
  Object.assign(process.env, {
    FAULTLINE_AUTH: "proxy",
    FAULTLINE_PROXY_SOURCES: "127.0.0.1/32",
    FAULTLINE_ROLE_GROUPS: JSON.stringify({ admin: ["sre-leads"], responder: ["sre"], viewer: ["staff"] }),
  });
  setDatabaseUrl(db.url);
  const edge: { onRequest?: ReturnType<typeof createEdge>["onRequest"] } = {};
  server = createServer((req, res) => void edge.onRequest!(req, res));
  server.prependListener("request", stampPeer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  own = `http://127.0.0.1:${port}`;
  const created = createEdge(
    {
      label,
      specs,
      bodies: OWN_BODY_ROUTES,
      security: {
        hosts: allowedHosts("127.0.0.1", port),
        machines: machineRoutes({ webhook: WEBHOOK_TOKEN, metrics: METRICS_TOKEN }),
        signInOn: () => true,
      },
    },
    routeHandler,
  );
  edge.onRequest = created.onRequest;
  server.on("connect", created.onConnect);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const name of ["FAULTLINE_AUTH", "FAULTLINE_PROXY_SOURCES", "FAULTLINE_ROLE_GROUPS"]) delete process.env[name];
  await db.close();
});

interface Send {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Written in pieces, without a Content-Length. */
  chunks?: Buffer[];
  from?: string;
  agent?: Agent;
}

function send(r: Send): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = {
      host: `127.0.0.1:${port}`,
      ...(r.body !== undefined ? { "content-length": String(Buffer.byteLength(r.body)) } : {}),
      ...(r.chunks ? { "transfer-encoding": "chunked" } : {}),
      ...r.headers,
    };
    const req = httpRequest({ host: "127.0.0.1", port, localAddress: r.from, method: r.method, path: r.path, headers, agent: r.agent ?? false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("connect", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    if (r.chunks) {
      const write = (i: number) => (i < r.chunks!.length ? req.write(r.chunks![i], () => write(i + 1)) : req.end());
      write(0);
    } else req.end(r.body);
  });
}

const person = (email: string, groups: string) => ({ "x-forwarded-email": email, "x-forwarded-groups": groups });
const VERA = person("vera@example.org", "staff");
const ROSA = person("rosa@example.org", "sre,staff");
const ADAM = person("adam@example.org", "sre-leads");
const MIA = person("mia@example.org", "marketing");
const JSON_TYPE = { "content-type": "application/json" };

async function refusalCounts(): Promise<{ noted: number; recorded: number; failures: number }> {
  const { auditRefusals, auditWriteFailures } = getMetrics();
  const values = (await auditRefusals.get()).values;
  const stage = (s: string) => values.find((v) => v.labels.stage === s)?.value ?? 0;
  return { noted: stage("noted"), recorded: stage("recorded"), failures: (await auditWriteFailures.get()).values[0]?.value ?? 0 };
}

/** The rows written since the one with id `after`, in the order written. */
const rowsAfter = (after: bigint) => db.prisma.auditEntry.findMany({ where: { id: { gt: after } }, orderBy: { id: "asc" } });
const lastId = async () => (await db.prisma.auditEntry.findFirst({ orderBy: { id: "desc" }, select: { id: true } }))?.id ?? 0n;

describe("a forgery run: every refused request is in the audit log, with its role", () => {
  it("accounts for 30 varied refusals at the edge and the gate, repeats gathered into one row with their count", async () => {
    const evil = { ...JSON_TYPE, origin: "http://evil.example" };
    const ack = "/api/v1/incidents/1/acknowledge";
    const notes = "/api/v1/incidents/987654/notes";
    const big = Buffer.alloc(256 * 1024, 0x61);
    // Each request, the status it must get, and the row it must be counted in: [action, route, actor, role].
    const run: { send: Send; status: number; row: [string, string, string, string] }[] = [
      // Cross-site and Origin-less state changes, refused at the edge under whom the proxy says sends them.
      {
        send: { method: "POST", path: ack, headers: { ...VERA, ...evil }, body: "{}" },
        status: 403,
        row: ["edge.cross-site", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
      },
      {
        send: { method: "POST", path: ack, headers: { ...VERA, ...JSON_TYPE, origin: "null" }, body: "{}" },
        status: 403,
        row: ["edge.cross-site", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
      },
      {
        send: { method: "POST", path: ack, headers: { ...VERA, ...evil }, body: "{}" },
        status: 403,
        row: ["edge.cross-site", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
      },
      {
        send: { method: "POST", path: notes, headers: { ...ROSA, ...JSON_TYPE }, body: '{"text":"x"}' },
        status: 403,
        row: ["edge.cross-site", "/api/v1/incidents/[id]/notes", "rosa@example.org", "responder"],
      },
      {
        send: { method: "POST", path: notes, headers: { ...ROSA, ...JSON_TYPE, "sec-fetch-site": "cross-site" }, body: '{"text":"x"}' },
        status: 403,
        row: ["edge.cross-site", "/api/v1/incidents/[id]/notes", "rosa@example.org", "responder"],
      },
      {
        send: { method: "DELETE", path: "/api/v1/demo/scenarios/x", headers: { ...JSON_TYPE, origin: `http://127.0.0.1:${port + 1}` } },
        status: 403,
        row: ["edge.cross-site", "/api/v1/demo/scenarios/[id]", "(unknown)", "anonymous"],
      },
      {
        send: { method: "POST", path: "/api/v1/demo/api-server", headers: { ...ADAM, ...JSON_TYPE, origin: `https://127.0.0.1:${port}` }, body: "{}" },
        status: 403,
        row: ["edge.cross-site", "/api/v1/demo/api-server", "adam@example.org", "admin"],
      },
      // Bodies a hostile page can post without asking.
      {
        send: { method: "POST", path: ack, headers: { ...VERA, "content-type": "text/plain", origin: own }, body: "{}" },
        status: 415,
        row: ["edge.content-type", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
      },
      {
        send: { method: "POST", path: notes, headers: { ...ROSA, "content-type": "application/x-www-form-urlencoded", origin: own }, body: "text=x" },
        status: 415,
        row: ["edge.content-type", "/api/v1/incidents/[id]/notes", "rosa@example.org", "responder"],
      },
      {
        send: { method: "POST", path: "/api/v1/incidents/1/resolve", headers: { ...ROSA, origin: own }, body: "{}" },
        status: 415,
        row: ["edge.content-type", "/api/v1/incidents/[id]/resolve", "rosa@example.org", "responder"],
      },
      // A rebound name, for a change and for a read.
      {
        send: { method: "POST", path: ack, headers: { ...VERA, ...JSON_TYPE, host: "evil.example", origin: "http://evil.example" }, body: "{}" },
        status: 421,
        row: ["edge.host", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
      },
      {
        send: { method: "GET", path: "/api/v1/catalog", headers: { ...VERA, host: "evil.example" } },
        status: 421,
        row: ["edge.host", "/api/v1/catalog", "vera@example.org", "viewer"],
      },
      // Machine routes without their token, or with a wrong one.
      {
        send: { method: "POST", path: "/api/v1/alerts/alertmanager", headers: JSON_TYPE, body: "{}" },
        status: 401,
        row: ["edge.machine-token", "/api/v1/alerts/alertmanager", "(unknown)", "anonymous"],
      },
      {
        send: { method: "POST", path: "/api/v1/alerts/alertmanager", headers: { ...JSON_TYPE, authorization: "Bearer wrong-token-0123456789" }, body: "{}" },
        status: 401,
        row: ["edge.machine-token", "/api/v1/alerts/alertmanager", "(unknown)", "anonymous"],
      },
      {
        send: { method: "GET", path: "/metrics", headers: { authorization: `Bearer ${WEBHOOK_TOKEN}` } },
        status: 401,
        row: ["edge.machine-token", "/metrics", "(unknown)", "anonymous"],
      },
      // Paths Next.js would throw on, methods no route serves, bodies over their bound, a header Next cannot read.
      {
        send: { method: "GET", path: "/api/v1/catalog/%zz", headers: VERA },
        status: 400,
        row: ["edge.path", "/api/v1/catalog/[id]", "vera@example.org", "viewer"],
      },
      { send: { method: "GET", path: "/incidents/%ff", headers: VERA }, status: 400, row: ["edge.path", "/incidents/[id]", "vera@example.org", "viewer"] },
      {
        send: { method: "TRACE", path: "/api/v1/incidents/1/notes", headers: VERA },
        status: 405,
        row: ["edge.method", "/api/v1/incidents/[id]/notes", "vera@example.org", "viewer"],
      },
      {
        send: { method: "PUT", path: "/api/v1/catalog", headers: { ...VERA, ...JSON_TYPE, origin: own }, body: "{}" },
        status: 405,
        row: ["edge.method", "/api/v1/catalog", "vera@example.org", "viewer"],
      },
      {
        send: { method: "GET", path: "/api/v1/catalog", headers: VERA, body: "x" },
        status: 413,
        row: ["edge.body-too-large", "/api/v1/catalog", "vera@example.org", "viewer"],
      },
      {
        send: {
          method: "POST",
          path: notes,
          headers: { ...ROSA, ...JSON_TYPE, origin: own },
          chunks: Array.from({ length: API_BODY_LIMIT / big.length + 1 }, () => big),
        },
        status: 413,
        row: ["edge.body-too-large", "/api/v1/incidents/[id]/notes", "rosa@example.org", "responder"],
      },
      {
        send: { method: "POST", path: "/api/v1/nothing-here", headers: { ...VERA, ...JSON_TYPE, origin: own }, body: "{}" },
        status: 404,
        row: ["edge.no-route", "unmatched", "vera@example.org", "viewer"],
      },
      {
        send: { method: "GET", path: "/incidents", headers: { ...VERA, rsc: "1", "next-router-state-tree": "[1,2" } },
        status: 400,
        row: ["edge.header", "/incidents", "vera@example.org", "viewer"],
      },
      {
        send: { method: "CONNECT", path: "/api/v1/catalog", headers: VERA },
        status: 405,
        row: ["edge.method", "/api/v1/catalog", "vera@example.org", "viewer"],
      },
      // Past the edge: reads refused a role, sign-in or the proxy, by the gate of the real route handlers.
      {
        send: { method: "GET", path: "/api/v1/incidents", headers: MIA },
        status: 403,
        row: ["GET /api/v1/incidents", "/api/v1/incidents", "mia@example.org", "none"],
      },
      { send: { method: "GET", path: "/api/v1/audit", headers: VERA }, status: 403, row: ["GET /api/v1/audit", "/api/v1/audit", "vera@example.org", "viewer"] },
      { send: { method: "GET", path: "/api/v1/catalog" }, status: 401, row: ["GET /api/v1/catalog", "/api/v1/catalog", "(unknown)", "anonymous"] },
      {
        send: { method: "GET", path: "/api/v1/incidents", headers: ADAM, from: "127.0.0.2" },
        status: 403,
        row: ["GET /api/v1/incidents", "/api/v1/incidents", "(unknown)", "anonymous"],
      },
      // A change from this site that the role refuses, and one the domain refuses.
      {
        send: { method: "POST", path: ack, headers: { ...VERA, ...JSON_TYPE, origin: own }, body: "{}" },
        status: 403,
        row: ["incident.acknowledge", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
      },
      {
        send: { method: "POST", path: notes, headers: { ...ROSA, ...JSON_TYPE, origin: own }, body: '{"text":"x"}' },
        status: 404,
        row: ["incident.note", "/api/v1/incidents/[id]/notes", "rosa@example.org", "responder"],
      },
    ];
    expect(run.length).toBeGreaterThanOrEqual(25);
    const before = await lastId();
    const counted = await refusalCounts();
    const statuses: number[] = [];
    for (const r of run) statuses.push(await send(r.send));
    expect(statuses).toEqual(run.map((r) => r.status));

    await flushRefusals();
    // Besides the refusals: the sign-ins of vera and rosa, whose first requests reached the gate.
    const all = await rowsAfter(before);
    expect(all.filter((r) => r.status < 400).map((r) => [r.action, r.actor])).toEqual([
      ["auth.signin", "vera@example.org"],
      ["auth.signin", "rosa@example.org"],
    ]);
    const rows = all.filter((r) => r.status >= 400);
    // rows x counts = requests refused, and each request in the row it belongs to.
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(run.length);
    const expected = new Map<string, number>();
    for (const r of run) {
      const key = JSON.stringify([r.send.method, ...r.row, r.status, r.send.from ?? "127.0.0.1"]);
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const written = new Map(rows.map((r) => [JSON.stringify([r.method, r.action, r.route, r.actor, r.role, r.status, r.remote]), r.count]));
    expect(written).toEqual(expected);
    expect(rows.filter((r) => r.count > 1).map((r) => [r.action, r.actor, r.count, r.detail])).toEqual([
      ["edge.cross-site", "vera@example.org", 3, 'cross-site request refused: Origin "http://evil.example" is not this site (http://127.0.0.1:' + port + ")"],
      [
        "edge.cross-site",
        "rosa@example.org",
        2,
        "cross-site request refused: there is neither Origin nor Sec-Fetch-Site; state-changing requests must come from this site",
      ],
      ["edge.machine-token", "(unknown)", 2, "a bearer token is required (Authorization: Bearer <token>)"],
    ]);
    const gathered = rows.find((r) => r.count === 3)!;
    expect(gathered.lastAt!.getTime()).toBeGreaterThan(gathered.at.getTime());
    expect(rows.every((r) => r.role !== null && r.detail !== null)).toBe(true);
    // No token is ever kept, not even the wrong one.
    const text = rows.map((r) => [r.actor, r.route, r.detail].join(" ")).join("\n");
    for (const token of [WEBHOOK_TOKEN, "wrong-token-0123456789"]) expect(text).not.toContain(token);
    expect(await refusalCounts()).toMatchObject({ noted: counted.noted + run.length, recorded: counted.recorded + run.length });
  }, 60_000);
});

describe("a flood of forged requests", () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  afterAll(() => agent.destroy());

  /** `n` requests, 16 at a time over kept-alive connections; returns how many got `status`. */
  async function flood(n: number, request: (i: number) => Send, status: number): Promise<number> {
    let next = 0;
    let matched = 0;
    const worker = async () => {
      while (next < n) {
        const i = next++;
        if ((await send({ ...request(i), agent })) === status) matched++;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    return matched;
  }

  it("5,000 alike from one address: one row per window, each counting its share", async () => {
    const before = await lastId();
    const forged = { method: "POST", path: "/api/v1/incidents/1/acknowledge", headers: { ...VERA, ...JSON_TYPE, origin: "http://evil.example" }, body: "{}" };
    let refused = 0;
    // Five windows of 1,000: the writer's turn comes between them.
    for (let w = 0; w < 5; w++) {
      refused += await flood(1_000, () => forged, 403);
      await flushRefusals();
    }
    expect(refused).toBe(5_000);
    const rows = await rowsAfter(before);
    expect(rows.map((r) => [r.action, r.actor, r.role, r.count])).toEqual(
      Array.from({ length: 5 }, () => ["edge.cross-site", "vera@example.org", "viewer", 1_000]),
    );
  }, 300_000);

  it("5,000 each from a different forged sender: at most ITEMISED rows a window, the rest counted by status", async () => {
    const before = await lastId();
    const kinds = [
      { headers: { ...JSON_TYPE, origin: "http://evil.example" }, status: 403 },
      { headers: { "content-type": "text/plain", origin: own }, status: 415 },
    ];
    let refused = 0;
    for (let w = 0; w < 5; w++) {
      refused += await flood(
        500,
        (i) => ({
          method: "POST",
          path: `/api/v1/incidents/${i}/notes`,
          headers: { ...person(`bot-${w}-${i}@example.org`, "staff"), ...kinds[0].headers },
          body: "{}",
        }),
        kinds[0].status,
      );
      refused += await flood(
        500,
        (i) => ({
          method: "POST",
          path: `/api/v1/incidents/${i}/resolve`,
          headers: { ...person(`bot-${w}-${i}@example.org`, "sre"), ...kinds[1].headers },
          body: "{}",
        }),
        kinds[1].status,
      );
      await flushRefusals();
    }
    expect(refused).toBe(5_000);
    const rows = await rowsAfter(before);
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(5_000);
    // Per window: ITEMISED itemised senders, then one row per status (403, 415) for the rest.
    expect(rows.length).toBe(5 * (ITEMISED + 2));
    const unitemised = rows.filter((r) => r.action === "audit.unitemised");
    expect(unitemised.map((r) => [r.status, r.count, r.role])).toEqual(
      Array.from({ length: 5 }, () => [
        [403, 500 - ITEMISED, "(various)"],
        [415, 500, "(various)"],
      ]).flat(),
    );
    expect(unitemised[0].detail).toBe(
      `${500 - ITEMISED} refusals with status 403 past the ${ITEMISED} distinct ones itemised in this window (other people, addresses, routes or reasons)`,
    );
  }, 300_000);
});

describe("when the database is down", () => {
  it("still answers every refusal at once, counts what waits, and writes it whole once the database is back", async () => {
    const dead = new PrismaClient({ adapter: new PrismaPg({ connectionString: `postgresql://nobody:none@127.0.0.1:${await freePort()}/faultline` }) });
    const before = await lastId();
    const counted = await refusalCounts();
    const forged = { method: "POST", path: "/api/v1/demo/api-server", headers: { ...ADAM, ...JSON_TYPE, origin: "http://evil.example" }, body: "{}" };
    for (let i = 0; i < 7; i++) expect(await send(forged)).toBe(403);
    expect(await flushRefusals(dead)).toBe(0);
    for (let i = 0; i < 5; i++) expect(await send(forged)).toBe(403);
    expect(await flushRefusals(dead)).toBe(0);
    expect(await refusalCounts()).toEqual({ noted: counted.noted + 12, recorded: counted.recorded, failures: counted.failures + 2 });
    expect(await rowsAfter(before)).toEqual([]);
    await dead.$disconnect();

    // Back: the refusals kept through both failures, in one row.
    expect(await flushRefusals()).toBe(1);
    expect((await rowsAfter(before)).map((r) => [r.action, r.actor, r.role, r.count])).toEqual([["edge.cross-site", "adam@example.org", "admin", 12]]);
    expect(await refusalCounts()).toMatchObject({ recorded: counted.recorded + 12 });
  });

  it("the writer started by the server writes on its own, every window", async () => {
    const before = await lastId();
    expect(await send({ method: "GET", path: "/api/v1/audit", headers: ROSA })).toBe(403);
    const writer = startAuditWriter(50);
    try {
      const deadline = Date.now() + 30_000;
      while ((await rowsAfter(before)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      writer.stop();
    }
    expect((await rowsAfter(before)).map((r) => [r.action, r.actor, r.role, r.status])).toEqual([["GET /api/v1/audit", "rosa@example.org", "responder", 403]]);
  });
});
