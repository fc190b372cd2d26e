import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERTMANAGER_BODY_LIMIT } from "@/lib/incidents/alerts/alertmanager-limits";
import { OWN_BODY_ROUTES } from "@/lib/incidents/alerts/webhook-body";
import { API_BODY_LIMIT } from "./body-limit";
import { createEdge, decide, type EdgeRoutes } from "./edge";
import { hotHeaders, hotReadOf, registerHotRead } from "./hot-reads";
import { percentEncodingProblem } from "./percent";
import { createRouteLabeler } from "./route-label";
import { scanAppRoutes } from "./route-table";

// The edge in front of a stand-in for Next's request handler (Next itself is exercised by e2e/fuzz.spec.ts):
// a real HTTP server on loopback, real sockets, the app's real route files.

const specs = new Map(scanAppRoutes(path.resolve(import.meta.dirname, "../../app")).map((s) => [s.pattern, s]));
const routes: EdgeRoutes = {
  label: createRouteLabeler({
    staticRoutes: [...specs.keys()].filter((p) => !p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/[-/]/g, "\\$&")}(?:/)?$` })),
    dynamicRoutes: [...specs.keys()].filter((p) => p.includes("[")).map((page) => ({ page, regex: `^${page.replace(/\[[^\]]+\]/g, "([^/]+?)")}(?:/)?$` })),
  }),
  specs,
  // As scripts/start.ts hands it to the server: the webhook's own bound and 503 past it.
  bodies: OWN_BODY_ROUTES,
};

let server: Server;
let port = 0;
const seen: { method: string; url: string; bytes: number }[] = [];
beforeAll(async () => {
  const edge = createEdge(routes, async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    seen.push({ method: req.method!, url: req.url!, bytes });
    res.end(JSON.stringify({ bytes }));
  });
  server = createServer((req, res) => void edge.onRequest(req, res));
  server.on("connect", edge.onConnect);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
/** One request; `chunks` are written one by one (chunked), `body` with a Content-Length. */
function send(method: string, target: string, opts: { body?: Buffer; chunks?: Buffer[]; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...(opts.body ? { "content-length": String(opts.body.length) } : {}),
      ...(opts.chunks ? { "transfer-encoding": "chunked" } : {}),
      ...opts.headers,
    };
    const req = httpRequest({ host: "127.0.0.1", port, method, path: target, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString() }));
    });
    // Node's client hands the answer to a CONNECT to this event, whatever its status.
    req.on("connect", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode!, headers: res.headers, body: "" });
    });
    req.on("error", reject);
    if (opts.chunks) {
      const write = (i: number) => (i < opts.chunks!.length ? req.write(opts.chunks![i], () => write(i + 1)) : req.end());
      write(0);
    } else req.end(opts.body);
  });
}

describe("percent-encoding in the path", () => {
  it("names what is wrong with %zz, a cut-off sequence and bytes that are not UTF-8", () => {
    expect(percentEncodingProblem("/api/v1/catalog/%zz")).toMatch(/malformed percent-encoding .* character 17/);
    expect(percentEncodingProblem("/catalog/%E0%A4%A")).toMatch(/malformed percent-encoding/);
    expect(percentEncodingProblem("/incidents/%ff")).toBe("the path's percent-encoded bytes are not UTF-8 text");
    expect(percentEncodingProblem("/incidents/%ED%A0%80")).toBe("the path's percent-encoded bytes are not UTF-8 text");
    expect(percentEncodingProblem("/catalog/caf%C3%A9?q=%zz")).toBeNull();
    expect(percentEncodingProblem("/api/v1/catalog/a%2Fb")).toBeNull();
  });

  it("answers 400 before the route sees it: JSON under /api/, text elsewhere", async () => {
    const api = await send("GET", "/api/v1/catalog/%zz");
    expect(api.status).toBe(400);
    expect(api.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(api.body).error).toMatch(/malformed percent-encoding/);
    const page = await send("GET", "/incidents/%ff");
    expect(page.status).toBe(400);
    expect(page.body).toBe("the path's percent-encoded bytes are not UTF-8 text\n");
    expect(seen.some((s) => s.url.includes("%zz") || s.url.includes("%ff"))).toBe(false);
  });
});

describe("methods", () => {
  it("reads each route's methods from its module: handlers their exports, pages GET and HEAD", () => {
    expect(specs.get("/api/v1/incidents/[id]/notes")).toMatchObject({ kind: "handler", allow: ["POST", "OPTIONS"] });
    expect(specs.get("/api/v1/demo/scenarios/[id]")?.allow).toEqual(["POST", "DELETE", "OPTIONS"]);
    expect(specs.get("/api/v1/catalog")?.allow).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(specs.get("/incidents/[id]")).toMatchObject({ kind: "page", allow: ["GET", "HEAD", "OPTIONS"] });
    expect(specs.get("/metrics")?.allow).toEqual(["GET", "HEAD", "OPTIONS"]);
  });

  it("answers TRACE, PUT and a page POST with 405 and the Allow header", async () => {
    const trace = await send("TRACE", "/api/v1/incidents/1/notes");
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe("POST, OPTIONS");
    expect(JSON.parse(trace.body).error).toBe("method TRACE is not allowed on /api/v1/incidents/[id]/notes; allowed: POST, OPTIONS");
    expect((await send("PUT", "/api/v1/catalog")).headers.allow).toBe("GET, HEAD, OPTIONS");
    const page = await send("POST", "/catalog/openbao-sealed", { body: Buffer.from("{}") });
    expect(page.status).toBe(405);
    expect(page.headers.allow).toBe("GET, HEAD, OPTIONS");
    const options = await send("OPTIONS", "/api/v1/demo/scenarios/x");
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe("POST, DELETE, OPTIONS");
  });

  it("answers CONNECT with 405 instead of dropping the connection, and a non-path target with 400", async () => {
    const connect = await send("CONNECT", "/api/v1/catalog");
    expect(connect.status).toBe(405);
    expect(connect.headers).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin" });
    expect(connect.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(decide("CONNECT", "example.com:443", undefined, routes)).toMatchObject({ status: 400 });
    expect((await send("POST", "/api/v1/nothing-here")).status).toBe(404);
  });
});

describe("body limits", () => {
  it("refuses a declared Content-Length over the limit at once, with the limit named", async () => {
    const before = seen.length;
    const big = await send("POST", "/api/v1/incidents/1/notes", { body: Buffer.alloc(API_BODY_LIMIT + 1, 0x61) });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error).toBe(`request body larger than ${API_BODY_LIMIT} bytes, the limit of POST /api/v1/incidents/[id]/notes`);
    expect(big.body).not.toContain("aaaa");
    expect(seen.length).toBe(before);
  });

  it("counts a chunked body as it streams and stops at the limit", async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x62);
    const big = await send("POST", "/api/v1/demo/scenarios/x", { chunks: Array.from({ length: 8 }, () => chunk) });
    expect(big.status).toBe(413);
    const small = await send("POST", "/api/v1/demo/scenarios/x", { chunks: [Buffer.from('{"node":'), Buffer.from('"master-1"}')] });
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body)).toEqual({ bytes: 19 });
  });

  it("answers a delivery over the webhook's bound as the webhook does, with a 503 Alertmanager retries", async () => {
    const over = await send("POST", "/api/v1/alerts/alertmanager", { headers: { "content-length": String(ALERTMANAGER_BODY_LIMIT + 1) } });
    expect(over.status).toBe(503);
    expect(over.headers["retry-after"]).toBe("30");
    expect(JSON.parse(over.body)).toMatchObject({
      retry: true,
      error: expect.stringContaining(`delivery of ${ALERTMANAGER_BODY_LIMIT + 1} bytes is over Faultline's limit`),
    });
  });

  it("takes no body on routes that only read, and passes a body within the limit whole", async () => {
    expect((await send("GET", "/api/v1/catalog", { body: Buffer.from("x") })).status).toBe(413);
    expect((await send("GET", "/catalog", { chunks: [Buffer.from("x")] })).status).toBe(413);
    const ok = await send("POST", "/api/v1/incidents/1/notes", { body: Buffer.alloc(API_BODY_LIMIT, 0x20) });
    expect(JSON.parse(ok.body)).toEqual({ bytes: API_BODY_LIMIT });
  });
});

describe("what Next.js would throw on", () => {
  it("refuses dot segments and a malformed router-state header with a 400", async () => {
    expect(percentEncodingProblem("/api/v1/incidents/%2e%2e/notes")).toBe('the path has a "." or ".." segment');
    expect(percentEncodingProblem("/api/v1/clusters/../health")).toBe('the path has a "." or ".." segment');
    expect(percentEncodingProblem("/catalog/a..b")).toBeNull();
    const tree = await send("GET", "/nothing", { headers: { rsc: "1", "next-router-state-tree": "[1,2" } });
    expect(tree.status).toBe(400);
    expect(tree.body).toBe("the Next-Router-State-Tree header is not a router state Next.js can read\n");
    const good = await send("GET", "/catalog", {
      headers: { rsc: "1", "next-router-state-tree": encodeURIComponent('["",{"children":["__PAGE__",{}]},null,null]') },
    });
    expect(good.status).toBe(200);
  });
});

describe("the plain GETs dashboards poll (hot-reads.ts)", () => {
  it("are answered at the edge with the text the domain wrote, with the edge's headers; anything else reaches the handler", async () => {
    registerHotRead("/api/v1/fleet", async (url) => (url.search === "" ? '{"rows":[]}' : undefined));
    registerHotRead("/api/v1/incidents", async () => {
      throw new Error("the store is down");
    });
    const before = seen.length;
    const hot = await send("GET", "/api/v1/fleet");
    expect(hot).toMatchObject({ status: 200, body: '{"rows":[]}' });
    expect(hot.headers).toMatchObject({ "content-type": "application/json", "cache-control": "no-store" });
    expect(seen.length).toBe(before);

    // A query the read is not sure of, a read that fails, a HEAD and a route with no read: the route handler answers.
    await send("GET", "/api/v1/fleet?state=critical");
    await send("GET", "/api/v1/incidents");
    await send("HEAD", "/api/v1/fleet");
    await send("GET", "/api/v1/catalog");
    expect(seen.slice(before).map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /api/v1/fleet?state=critical",
      "GET /api/v1/incidents",
      "HEAD /api/v1/fleet",
      "GET /api/v1/catalog",
    ]);
  });

  it("are registered by the route files beside their handlers, for the caller the route would serve", async () => {
    await import("@/app/api/v1/clusters/[name]/health/route");
    const read = hotReadOf("/api/v1/clusters/[name]/health")!;
    expect(read).toBeDefined();
    // No cluster of that name here: the route handler answers (its 404 names the clusters).
    expect(await read(new URL("http://x/api/v1/clusters/nowhere/health?view=summary"), hotHeaders({}))).toBeUndefined();
  });
});
