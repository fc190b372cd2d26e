import { Agent, request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { ROLE_GROUPS, startFaultline, type Started } from "./auth-servers";

// Every refusal reaches the audit log, counted whole and bounded, against `npm start` behind a stand-in proxy (the
// test sends its headers): forged and Origin-less changes, a rebound Host, bad paths and methods, machine routes
// without their token, refused API reads and refused pages (their layouts and page ask for the role each; the request
// is counted once). Then a flood of 5,000 forged POSTs, which leaves a row per window, not a row per request.

test.describe.configure({ mode: "serial" });

const WEBHOOK_TOKEN = "e2e-audit-webhook-token-0001";
const person = (email: string, groups: string) => ({ "x-forwarded-email": email, "x-forwarded-groups": groups });
const VERA = person("vera@example.org", "staff");
const ROSA = person("rosa@example.org", "sre,staff");
const ADAM = person("adam@example.org", "sre-leads");
const MIA = person("mia@example.org", "marketing");
const JSON_TYPE = { "content-type": "application/json" };

let server: Started;
let own: string;
let port: number;

interface Send {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  from?: string;
  agent?: Agent;
}

/** One request over node:http (a browser would not send a foreign Host, a bad path or TRACE). */
function send(r: Send): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { host: `127.0.0.1:${port}`, ...(r.body !== undefined ? { "content-length": String(Buffer.byteLength(r.body)) } : {}), ...r.headers };
    const req = httpRequest({ host: "127.0.0.1", port, localAddress: r.from, method: r.method, path: r.path, headers, agent: r.agent ?? false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.end(r.body);
  });
}

interface Row {
  action: string;
  method: string;
  route: string;
  actor: string;
  role: string | null;
  status: number;
  remote: string | null;
  count: number;
}

async function refused(): Promise<{ entries: Row[]; requests: number }> {
  const res = await fetch(`${own}/api/v1/audit?outcome=refused&limit=500`, { headers: ADAM });
  return (await res.json()) as { entries: Row[]; requests: number };
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startFaultline("audit-refusals", {
    FAULTLINE_AUTH: "proxy",
    FAULTLINE_PROXY_SOURCES: "127.0.0.1",
    FAULTLINE_ROLE_GROUPS: ROLE_GROUPS,
    FAULTLINE_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
  });
  own = server.url;
  port = Number(new URL(own).port);
});
test.afterAll(async () => server?.stop());

test("a forgery run: every refused request is in the audit log once, with the role of whoever sent it", async ({ browser }) => {
  test.setTimeout(120_000);
  const ack = "/api/v1/incidents/1/acknowledge";
  const notes = "/api/v1/incidents/987654/notes";
  const evil = { ...JSON_TYPE, origin: "http://evil.example" };
  const run: { send: Send; status: number; row: [string, string, string, string] }[] = [
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
      send: { method: "POST", path: notes, headers: { ...ROSA, ...JSON_TYPE, "sec-fetch-site": "cross-site" }, body: "{}" },
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
      send: { method: "POST", path: ack, headers: { ...VERA, ...JSON_TYPE, host: "evil.example", origin: "http://evil.example" }, body: "{}" },
      status: 421,
      row: ["edge.host", "/api/v1/incidents/[id]/acknowledge", "vera@example.org", "viewer"],
    },
    {
      send: { method: "GET", path: "/incidents", headers: { ...VERA, host: "evil.example" } },
      status: 421,
      row: ["edge.host", "/incidents", "vera@example.org", "viewer"],
    },
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
    { send: { method: "GET", path: "/metrics" }, status: 401, row: ["edge.machine-token", "/metrics", "(unknown)", "anonymous"] },
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
      send: { method: "GET", path: "/api/v1/catalog", headers: VERA, body: "x" },
      status: 413,
      row: ["edge.body-too-large", "/api/v1/catalog", "vera@example.org", "viewer"],
    },
    {
      send: { method: "POST", path: "/api/v1/nothing-here", headers: { ...VERA, ...JSON_TYPE, origin: own }, body: "{}" },
      status: 404,
      row: ["edge.no-route", "unmatched", "vera@example.org", "viewer"],
    },
    // Reads the role refuses: API and pages (a page's layouts and the page itself ask; the request counts once).
    {
      send: { method: "GET", path: "/api/v1/incidents", headers: MIA },
      status: 403,
      row: ["GET /api/v1/incidents", "/api/v1/incidents", "mia@example.org", "none"],
    },
    { send: { method: "GET", path: "/api/v1/audit", headers: VERA }, status: 403, row: ["GET /api/v1/audit", "/api/v1/audit", "vera@example.org", "viewer"] },
    { send: { method: "GET", path: "/api/v1/catalog" }, status: 401, row: ["GET /api/v1/catalog", "/api/v1/catalog", "(unknown)", "anonymous"] },
    { send: { method: "GET", path: "/audit", headers: VERA }, status: 403, row: ["GET /audit", "/audit", "vera@example.org", "viewer"] },
    { send: { method: "GET", path: "/incidents", headers: MIA }, status: 403, row: ["GET /incidents", "/incidents", "mia@example.org", "none"] },
    { send: { method: "GET", path: "/catalog" }, status: 401, row: ["GET /catalog", "/catalog", "(unknown)", "anonymous"] },
    { send: { method: "GET", path: "/health", headers: ADAM, from: "127.0.0.2" }, status: 403, row: ["GET /health", "/health", "(unknown)", "anonymous"] },
    // Changes from this site the role or the domain refuses.
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
  const statuses: number[] = [];
  for (const r of run) statuses.push(await send(r.send));
  expect(statuses).toEqual(run.map((r) => r.status));

  // Written once their window (5 s) closes: rows x counts = requests refused.
  await expect.poll(async () => (await refused()).requests, { timeout: 30_000 }).toBe(run.length);
  const { entries } = await refused();
  const expected = new Map<string, number>();
  for (const r of run) {
    const key = JSON.stringify([r.send.method, ...r.row, r.status, r.send.from ?? "127.0.0.1"]);
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  // Alike refusals are one row per window; a window may close during the run, so a key's rows are added up.
  const recorded = new Map<string, number>();
  for (const e of entries) {
    const key = JSON.stringify([e.method, e.action, e.route, e.actor, e.role, e.status, e.remote]);
    recorded.set(key, (recorded.get(key) ?? 0) + e.count);
  }
  expect(recorded).toEqual(expected);

  // The page shows the gathered row with its count.
  const context = await browser.newContext({ baseURL: own, extraHTTPHeaders: ADAM });
  const page = await context.newPage();
  await page.goto("/audit?action=edge.cross-site");
  await expect(page.getByTestId("audit-requests")).toHaveText("7");
  // Vera's three cross-site acknowledgements: one row of ×3, or ×2 and ×1 when a window closed between them.
  const vera = page.locator("tbody tr").filter({ has: page.locator('td[data-label="Who"]', { hasText: "vera@example.org" }) });
  const counts = await vera.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-count") ?? "1")));
  expect(counts.reduce((n, c) => n + c, 0)).toBe(3);
  const most = Math.max(...counts);
  expect(most).toBeGreaterThan(1);
  const gathered = page.locator(`tbody tr[data-count="${most}"]`).filter({ has: page.locator('td[data-label="Who"]', { hasText: "vera@example.org" }) });
  await expect(gathered.locator('td[data-label="Times"]')).toHaveText(`×${most}`);
  await expect(gathered.locator('td[data-label="Role"]')).toHaveText("viewer");
  await context.close();
});

test("a flood of 5,000 forged POSTs leaves a row per window, not a row per request", async () => {
  test.setTimeout(300_000);
  const before = await refused();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const forged = { method: "POST", path: "/api/v1/incidents/1/resolve", headers: { ...ROSA, ...JSON_TYPE, origin: "http://evil.example" }, body: "{}", agent };
  const started = Date.now();
  let next = 0;
  let forbidden = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < 5_000) {
        next++;
        if ((await send(forged)) === 403) forbidden++;
      }
    }),
  );
  const took = Date.now() - started;
  agent.destroy();
  expect(forbidden).toBe(5_000);
  await expect.poll(async () => (await refused()).requests, { timeout: 30_000 }).toBe(before.requests + 5_000);
  const rows = (await refused()).entries.filter((e) => e.route === "/api/v1/incidents/[id]/resolve" && e.action === "edge.cross-site");
  expect(rows.reduce((n, r) => n + r.count, 0)).toBe(5_000);
  // One row per 5 s window the flood touched.
  expect(rows.length).toBeLessThanOrEqual(Math.ceil(took / 5_000) + 1);
  test.info().annotations.push({ type: "flood", description: `5,000 forged POSTs in ${took} ms: ${rows.length} rows` });
});
