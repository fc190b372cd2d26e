import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWN_BODY_ROUTES } from "@/lib/incidents/alerts/webhook-body";
import { createEdge, type EdgeRoutes } from "./edge";
import { allowedHosts, STATE_CHANGING } from "./forgery";
import { guard } from "./guard";
import { machineRoutes } from "./machine-token";
import { createRouteLabeler } from "./route-label";
import { scanAppRoutes } from "./route-table";

// The edge's forgery, rebinding and machine-token rules, in front of a stand-in for Next's handler (Next itself
// is exercised by e2e/forgery.spec.ts): real sockets on loopback, the app's real route files. The matrix is
// generated from the route table, so a new state-changing route is covered the day it is added.

const specs = new Map(scanAppRoutes(path.resolve(import.meta.dirname, "../../app")).map((s) => [s.pattern, s]));
const label = createRouteLabeler({
  staticRoutes: [...specs.keys()].filter((p) => !p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/[-/]/g, "\\$&")}(?:/)?$` })),
  dynamicRoutes: [...specs.keys()].filter((p) => p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/\[[^\]]+\]/g, "([^/]+?)")}(?:/)?$` })),
});
const WEBHOOK = "/api/v1/alerts/alertmanager";
const TOKEN = "webhook-token-0123456789abcdef";
const METRICS_TOKEN = "metrics-token-0123456789abcdef";

type Seen = { method: string; url: string; csp?: string };
type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
interface Edge {
  port: number;
  seen: Seen[];
  server: Server;
}

/** An edge on loopback with these tokens (none: the machine routes take no token). */
async function startEdge(tokens: { webhook?: string; metrics?: string } = {}): Promise<Edge> {
  const seen: Seen[] = [];
  const edge: { onRequest?: ReturnType<typeof createEdge>["onRequest"] } = {};
  const server = createServer((req, res) => void edge.onRequest!(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const routes: EdgeRoutes = {
    label,
    specs,
    bodies: OWN_BODY_ROUTES,
    security: { hosts: allowedHosts("127.0.0.1", port), machines: machineRoutes(tokens), styleHashes: ["sha256-abc="] },
  };
  edge.onRequest = createEdge(routes, async (req, res) => {
    await req.toArray();
    seen.push({ method: req.method!, url: req.url!, csp: req.headers["content-security-policy"] as string | undefined });
    res.end("{}");
  }).onRequest;
  return { port, seen, server };
}

function send(edge: Edge, method: string, target: string, headers: Record<string, string> = {}, body = "{}"): Promise<Answer> {
  const withBody = STATE_CHANGING.has(method);
  return new Promise((resolve, reject) => {
    const all = { host: `127.0.0.1:${edge.port}`, ...(withBody ? { "content-length": String(Buffer.byteLength(body)) } : {}), ...headers };
    const req = httpRequest({ host: "127.0.0.1", port: edge.port, method, path: target, headers: all, agent: false }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(withBody ? body : undefined);
  });
}

let edge: Edge;
let tokened: Edge;
beforeAll(async () => {
  edge = await startEdge();
  tokened = await startEdge({ webhook: TOKEN, metrics: METRICS_TOKEN });
});
afterAll(() => Promise.all([edge, tokened].map((e) => new Promise<void>((resolve) => e.server.close(() => resolve())))));

const concrete = (pattern: string) => pattern.replace(/\[[^\]]+\]/g, "1");
const stateChanging = [...specs.values()].flatMap((spec) =>
  spec.allow.filter((m) => STATE_CHANGING.has(m)).map((method) => ({ method, pattern: spec.pattern })),
);

/** Every forged variant: what it sends beside the body, and the status it must get. */
const forged = (port: number): { name: string; headers: Record<string, string>; status: number }[] => {
  const own = `http://127.0.0.1:${port}`;
  return [
    { name: "Origin of another site", headers: { origin: "http://evil.example", "content-type": "application/json" }, status: 403 },
    { name: "Origin: null", headers: { origin: "null", "content-type": "application/json" }, status: 403 },
    { name: "no Origin, no Sec-Fetch-Site", headers: { "content-type": "application/json" }, status: 403 },
    { name: "no Origin, Sec-Fetch-Site: cross-site", headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" }, status: 403 },
    { name: "no Origin, Sec-Fetch-Site: same-site", headers: { "content-type": "application/json", "sec-fetch-site": "same-site" }, status: 403 },
    { name: "Origin on another port", headers: { origin: `http://127.0.0.1:${port + 1}`, "content-type": "application/json" }, status: 403 },
    { name: "Origin on https", headers: { origin: `https://127.0.0.1:${port}`, "content-type": "application/json" }, status: 403 },
    { name: "Origin that is not a URL", headers: { origin: "127.0.0.1", "content-type": "application/json" }, status: 403 },
    { name: "text/plain", headers: { origin: own, "content-type": "text/plain" }, status: 415 },
    { name: "form encoding", headers: { origin: own, "content-type": "application/x-www-form-urlencoded" }, status: 415 },
    { name: "multipart", headers: { origin: own, "content-type": "multipart/form-data; boundary=x" }, status: 415 },
    { name: "no Content-Type", headers: { origin: own }, status: 415 },
    { name: "a JSON look-alike type", headers: { origin: own, "content-type": "application/json-seq" }, status: 415 },
    {
      name: "Host of another name (DNS rebinding)",
      headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, "content-type": "application/json" },
      status: 421,
    },
    {
      name: "Host on another port",
      headers: { host: `127.0.0.1:${port + 1}`, origin: `http://127.0.0.1:${port + 1}`, "content-type": "application/json" },
      status: 421,
    },
  ];
};

describe("state-changing requests on every route of the route table", () => {
  it("covers the routes that change state", () => {
    expect(stateChanging.map((r) => `${r.method} ${r.pattern}`)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/incidents/[id]/acknowledge",
        "DELETE /api/v1/demo/scenarios/[id]",
        `POST ${WEBHOOK}`,
        "POST /api/v1/demo/api-server",
      ]),
    );
  });

  it("refuses every forged variant before the route sees it, naming the problem", async () => {
    for (const { method, pattern } of stateChanging) {
      for (const variant of forged(edge.port)) {
        const answer = await send(edge, method, concrete(pattern), variant.headers);
        expect({ route: `${method} ${pattern}`, variant: variant.name, status: answer.status }).toEqual({
          route: `${method} ${pattern}`,
          variant: variant.name,
          status: variant.status,
        });
        expect(JSON.parse(answer.body).error).toMatch(/cross-site|Content-Type|does not answer to the host/);
      }
    }
    expect(edge.seen.filter((s) => STATE_CHANGING.has(s.method))).toEqual([]);
  });

  it("passes JSON from the server's own origin, by Origin or by Sec-Fetch-Site, under each allowed Host", async () => {
    for (const { method, pattern } of stateChanging) {
      const target = concrete(pattern);
      const own = { origin: `http://127.0.0.1:${edge.port}`, "content-type": "application/json; charset=utf-8" };
      expect((await send(edge, method, target, own)).status).toBe(200);
      expect((await send(edge, method, target, { "content-type": "application/json", "sec-fetch-site": "same-origin" })).status).toBe(200);
      const local = { host: `localhost:${edge.port}`, origin: `http://localhost:${edge.port}`, "content-type": "application/json" };
      expect((await send(edge, method, target, local)).status).toBe(200);
      expect((await send(edge, method, target, { ...local, host: `[::1]:${edge.port}`, origin: `http://[::1]:${edge.port}` })).status).toBe(200);
    }
  });

  it("answers 421 to a foreign Host on reads too: pages, the API, assets", async () => {
    for (const target of ["/", "/incidents", "/api/v1/incidents", "/_next/static/x.js", "/metrics"]) {
      const answer = await send(edge, "GET", target, { host: "evil.example" });
      expect(answer.status).toBe(421);
      const error = target.startsWith("/api/") ? JSON.parse(answer.body).error : answer.body;
      expect(error).toMatch(/^this server does not answer to the host "evil.example"; the names it answers to are set by FAULTLINE_ALLOWED_HOSTS/);
    }
    expect(edge.seen.some((s) => s.method === "GET")).toBe(false);
  });
});

describe("behind a TLS proxy", () => {
  it("takes the scheme of a configured https:// name as the site's own, and the name without its default port", () => {
    const hosts = allowedHosts("127.0.0.1", 3000, ["https://faultline.example.com", "127.0.0.1"]);
    expect([...hosts.keys()].sort()).toEqual(["127.0.0.1:3000", "faultline.example.com", "faultline.example.com:443"]);
    const security = { hosts, machines: machineRoutes({}) };
    const post = (host: string, origin: string) =>
      guard("POST", "/api/v1/incidents/[id]/notes", { host, origin, "content-type": "application/json" }, false, security);
    expect(post("faultline.example.com", "https://faultline.example.com")).toBeNull();
    expect(post("Faultline.Example.com:443", "https://faultline.example.com")).toBeNull();
    expect(post("faultline.example.com", "http://faultline.example.com")).toMatchObject({ status: 403 });
    expect(post("127.0.0.1:3000", "http://127.0.0.1:3000")).toBeNull();
    expect(post("127.0.0.1:3000", "https://faultline.example.com")).toMatchObject({ status: 403 });
    expect(post("faultline.example.com:3000", "https://faultline.example.com")).toMatchObject({ status: 421 });
  });
});

describe("machine tokens", () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

  it("takes the webhook with its token and no Origin, as Alertmanager sends it; refuses a missing or wrong one with 401", async () => {
    expect((await send(tokened, "POST", `${WEBHOOK}?cluster=prod`, bearer(TOKEN))).status).toBe(200);
    for (const headers of [
      { "content-type": "application/json" },
      bearer("webhook-token-0123456789abcdeX"),
      bearer(METRICS_TOKEN),
      { authorization: TOKEN },
    ] as Record<string, string>[]) {
      const answer = await send(tokened, "POST", WEBHOOK, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="faultline"');
      expect(answer.body).not.toContain(TOKEN);
    }
    // The token lifts the Origin rule, not the content type, nor the Host.
    expect((await send(tokened, "POST", WEBHOOK, { ...bearer(TOKEN), "content-type": "text/plain" })).status).toBe(415);
    expect((await send(tokened, "POST", WEBHOOK, { ...bearer(TOKEN), host: "evil.example" })).status).toBe(421);
    // Even a same-origin browser needs the token once one is configured.
    expect((await send(tokened, "POST", WEBHOOK, { origin: `http://127.0.0.1:${tokened.port}`, "content-type": "application/json" })).status).toBe(401);
  });

  it("guards /metrics with its own token, and only when one is configured", async () => {
    expect((await send(tokened, "GET", "/metrics")).status).toBe(401);
    expect((await send(tokened, "GET", "/metrics", { authorization: `Bearer ${TOKEN}` })).status).toBe(401);
    expect((await send(tokened, "GET", "/metrics", { authorization: `bearer ${METRICS_TOKEN}` })).status).toBe(200);
    expect((await send(edge, "GET", "/metrics")).status).toBe(200);
  });

  it("with sign-in on, the machine routes need a token even when none is configured: they refuse everyone rather than fall open", () => {
    const security = { hosts: allowedHosts("127.0.0.1", 3000), machines: machineRoutes({}), signInOn: () => true };
    const host = { host: "127.0.0.1:3000" };
    expect(guard("GET", "/metrics", host, false, security)?.status).toBe(401);
    expect(guard("POST", WEBHOOK, { ...host, "content-type": "application/json", authorization: "Bearer anything-0123456789" }, false, security)?.status).toBe(
      401,
    );
    expect(guard("GET", "/metrics", host, false, { ...security, signInOn: () => false })).toBeNull();
  });

  it("without a token, the webhook is a route like the others: a request without Origin is refused", async () => {
    expect((await send(edge, "POST", WEBHOOK, { "content-type": "application/json" })).status).toBe(403);
  });
});

describe("security headers", () => {
  it("are on passed requests and on every kind of refusal, with a fresh nonce handed to Next.js", async () => {
    const answers = [
      await send(edge, "GET", "/incidents"),
      await send(edge, "GET", "/incidents", { "content-security-policy": "script-src * 'unsafe-inline'" }),
      await send(edge, "POST", "/api/v1/incidents/1/notes", { origin: "http://evil.example", "content-type": "application/json" }),
      await send(edge, "GET", "/", { host: "evil.example" }),
      await send(edge, "GET", "/api/v1/catalog/%zz"),
      await send(edge, "TRACE", "/api/v1/incidents/1/notes"),
      await send(edge, "OPTIONS", "/api/v1/incidents/1/notes"),
      await send(tokened, "GET", "/metrics"),
    ];
    const nonces = new Set<string>();
    for (const answer of answers) {
      const csp = String(answer.headers["content-security-policy"]);
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{24}' 'strict-dynamic'/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("'sha256-abc='");
      nonces.add(/'nonce-([^']+)'/.exec(csp)![1]);
      expect(answer.headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin" });
      expect(answer.headers["strict-transport-security"]).toBeUndefined();
    }
    expect(nonces.size).toBe(answers.length);
    // Next.js reads the nonce from the request's own CSP: the server's, never the client's.
    const handed = edge.seen.filter((s) => s.url === "/incidents").map((s) => s.csp);
    expect(handed).toHaveLength(2);
    for (const csp of handed) expect(String(csp)).toMatch(/^default-src 'self'; script-src 'self' 'nonce-/);
    expect(String(answers[0].headers["content-security-policy"])).toBe(handed[0]);
  });
});
