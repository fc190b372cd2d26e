import { mkdirSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { asAlertmanager, ORIGIN, sameOrigin, WEBHOOK_TOKEN } from "./helpers";
import fc from "fast-check";
import { API_BODY_LIMIT, bodyLimitOf } from "../lib/http/body-limit";
import { OWN_BODY_ROUTES } from "../lib/incidents/alerts/webhook-body";
import { scanAppRoutes, type RouteSpec } from "../lib/http/route-table";
import { body, headers, METHODS, query, segment, type Input } from "./fuzz-inputs";

// Every route of the app (read from app/ as the edge reads it), every method it serves and some it does not,
// a few hundred generated inputs each, against the `npm start` server with its real database and demo
// cluster: no answer may be a 5xx, and the server must be ready afterwards. FAULTLINE_FUZZ_SEED replays a run.

const SEED = Number(process.env.FAULTLINE_FUZZ_SEED ?? 20261123);
const PER_API_ROUTE = 300;
const PER_PAGE = 150;
const CONCURRENCY = 6;
const QUERY_KEYS = [
  "q",
  "category",
  "component",
  "startup",
  "dataLoss",
  "kind",
  "sort",
  "dir",
  "cluster",
  "status",
  "severity",
  "limit",
  "from",
  "to",
  "cursor",
  "format",
  "path",
  "incident",
  "session",
  "view",
  "server",
  "state",
];

interface Outcome {
  status?: number;
  error?: string;
}
interface Failure {
  route: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  raw: boolean;
  body: string;
  outcome: Outcome;
}

test("every route answers thousands of hostile inputs without a 5xx, and the server stays ready", async ({ request, baseURL }) => {
  test.setTimeout(360_000);
  console.log(`fuzz seed ${SEED} (FAULTLINE_FUZZ_SEED=${SEED} replays this run)`);
  const base = new URL(baseURL!);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  // Real values for the dynamic segments, and an incident of the suite's own to act on (not on the demo cluster).
  const catalog = (await (await request.get("/api/v1/catalog")).json()).entries.map((e: { id: string }) => e.id).slice(0, 5);
  const runbooks = (await (await request.get("/api/v1/runbooks")).json()).runbooks.map((r: { id: string }) => r.id).slice(0, 5);
  const components = (await (await request.get("/api/v1/blast-radius")).json()).pages.map((p: { id: string }) => p.id).slice(0, 5);
  const demo = await (await request.get("/api/v1/demo")).json();
  const scenarios: string[] = demo.scenarios.map((s: { id: string }) => s.id);
  expect(demo.scenarios.filter((s: { active: boolean }) => s.active)).toEqual([]);
  const cluster = `fuzz-${SEED}`;
  const alert = {
    status: "firing",
    labels: { alertname: "FuzzAlert", severity: "warning", cluster },
    annotations: { summary: "fuzz" },
    startsAt: new Date().toISOString(),
    fingerprint: "f0zz",
  };
  const delivery = { version: "4", groupKey: "{}:{}", status: "firing", receiver: "faultline", alerts: [alert] };
  const opened = await (await request.post("/api/v1/alerts/alertmanager", asAlertmanager(delivery))).json();
  const incident = String(opened.outcomes[0].incidentId);
  const session = (await (await request.post(`/api/v1/incidents/${incident}/runbook-sessions`, sameOrigin({ actor: "fuzz", runbookId: runbooks[0] }))).json())
    .session;
  const values: Record<string, string[]> = {
    id: [...catalog, ...runbooks, incident, "999999", "abc"],
    component: components,
    name: ["demo", "nope"],
    sid: [String(session.id), "1"],
    node: ["master-0", "master-2", "master-99"],
  };
  const valuesFor = (pattern: string, param: string) =>
    pattern.startsWith("/api/v1/demo/scenarios")
      ? [...scenarios.slice(0, 6), "toaster-on-fire"]
      : pattern.includes("incidents") && param === "id"
        ? [incident, incident, incident, "999999", "0"]
        : values[param];

  const actor = ["fuzz", "ana", "fuzz", " ", "x".repeat(101)];
  const fields: Record<string, Record<string, unknown[]>> = {
    "/api/v1/incidents/[id]/acknowledge": { actor, note: ["seen"] },
    "/api/v1/incidents/[id]/notes": { actor, text: ["a note", "bao says \u0000 \ud800", ""] },
    "/api/v1/incidents/[id]/evidence": {
      actor,
      text: [
        "[fail] transit.profile: Transit key profile - blocking/api_server_availability: key is soft-deleted",
        "token=hvs.CAESIJ7mXq3kzQ2b8Yd0pLr6WnT4 \u0000",
        " ",
        7,
      ],
    },
    "/api/v1/incidents/[id]/resolve": { actor, resolution: ["fixed"] },
    "/api/v1/incidents/[id]/runbook-sessions": { actor, runbookId: runbooks },
    "/api/v1/incidents/[id]/runbook-sessions/[sid]/steps": {
      actor,
      node: session.path,
      answer: ["Yes", "No"],
      note: ["n"],
      evidence: [{ out: "Sealed true" }],
    },
    "/api/v1/alerts/alertmanager": { version: ["4"], groupKey: ["{}"], status: ["firing", "resolved"], receiver: ["r"], alerts: [[alert], []] },
    "/api/v1/demo/scenarios/[id]": { node: ["master-1", "Master 9"], variant: ["x"] },
    "/api/v1/demo/api-server": { state: ["up", "sideways"] },
  };

  const routes = scanAppRoutes(path.resolve("app"));
  expect(routes.length).toBeGreaterThan(30);
  const arbitraryFor = (spec: RouteSpec): fc.Arbitrary<Input> => {
    const parts = spec.pattern.split("/").map((part) => {
      const param = /^\[(.+)\]$/.exec(part)?.[1];
      return param ? segment(valuesFor(spec.pattern, param)) : fc.constant(part);
    });
    const served = spec.allow.filter((m) => m !== "OPTIONS");
    const method = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...served) },
      { weight: 1, arbitrary: fc.constant("OPTIONS") },
      { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
    );
    const limit = Math.min(bodyLimitOf(spec, OWN_BODY_ROUTES) || 64 * 1024, API_BODY_LIMIT);
    return fc
      .record({
        parts: fc.tuple(...parts),
        query: query(QUERY_KEYS),
        method,
        headers,
        body: body(fields[spec.pattern] ?? { q: ["x"] }, limit),
        dice: fc.nat(19),
      })
      .map((r) => ({
        method: r.method,
        target: r.parts.join("/") + r.query,
        headers: r.headers,
        // Reading methods mostly come without a body, as browsers send them.
        body: ["GET", "HEAD", "OPTIONS"].includes(r.method) && r.dice > 2 ? undefined : r.body,
        raw: r.dice % 10 === 0 || r.method === "CONNECT",
      }));
  };

  const summary: Record<string, { inputs: number; fiveXX: number; statuses: Record<string, number> }> = {};
  const failures: Failure[] = [];
  const started = Date.now();
  for (const [i, spec] of routes.entries()) {
    const inputs = fc
      .sample(arbitraryFor(spec), { numRuns: spec.kind === "page" ? PER_PAGE : PER_API_ROUTE, seed: SEED + i })
      .map((input) => harmless(spec, input, scenarios));
    const row = (summary[spec.pattern] = { inputs: inputs.length, fiveXX: 0, statuses: {} as Record<string, number> });
    await pool(inputs, CONCURRENCY, async (input) => {
      const outcome = input.raw ? await sendRaw(base, input) : await send(base, agent, input);
      const key = outcome.status ? String(outcome.status) : "closed";
      row.statuses[key] = (row.statuses[key] ?? 0) + 1;
      const dropped = !outcome.status && (input.body?.length ?? 0) > 64 * 1024; // a refused oversized body may end in a reset
      if ((outcome.status ?? 0) >= 500 || (!outcome.status && !dropped)) {
        if (outcome.status) row.fiveXX++;
        failures.push({
          route: spec.pattern,
          method: input.method,
          target: input.target.slice(0, 300),
          headers: input.headers,
          raw: !!input.raw,
          body: (input.body?.toString("utf8") ?? "").slice(0, 300),
          outcome,
        });
      }
    });
  }
  agent.destroy();
  const total = Object.values(summary).reduce((n, r) => n + r.inputs, 0);
  for (const [route, r] of Object.entries(summary))
    console.log(`${route.padEnd(56)} ${String(r.inputs).padStart(4)} inputs, ${r.fiveXX} 5xx  ${JSON.stringify(r.statuses)}`);
  console.log(`${total} inputs in ${((Date.now() - started) / 1000).toFixed(0)} s, ${failures.length} failures`);
  mkdirSync("test-results", { recursive: true });
  writeFileSync(
    "test-results/fuzz.json",
    `${JSON.stringify({ seed: SEED, total, seconds: (Date.now() - started) / 1000, routes: summary, failures: failures.slice(0, 200) }, null, 2)}\n`,
  );

  // Leave the demo and the incidents as the other specs expect them.
  for (const s of (await (await request.get("/api/v1/demo")).json()).scenarios.filter((s: { active: boolean }) => s.active))
    await request.delete(`/api/v1/demo/scenarios/${s.id}`, sameOrigin());
  await request.post("/api/v1/demo/api-server", sameOrigin({ state: "up" }));
  const open = (await (await request.get("/api/v1/incidents?status=open,acknowledged&limit=500")).json()).incidents.filter(
    (i: { id: number; cluster: string }) => i.cluster !== "demo" && i.id >= Number(incident),
  );
  for (const i of open) await request.post(`/api/v1/incidents/${i.id}/resolve`, sameOrigin({ actor: "fuzz", resolution: "made by the fuzz suite" }));

  for (const f of failures.slice(0, 40))
    console.log(`FAIL ${f.method} ${f.target} -> ${JSON.stringify(f.outcome)} body ${JSON.stringify(f.body.slice(0, 120))}`);
  expect(failures, "inputs answered with a 5xx or a dropped connection (see test-results/fuzz.json)").toEqual([]);
  expect(total).toBeGreaterThan(5_000);
  expect((await request.get("/api/readyz")).status()).toBe(200);
  expect((await (await request.get("/api/v1/demo")).json()).scenarios.filter((s: { active: boolean }) => s.active)).toEqual([]);
});

/** Inputs that would really inject a scenario or take the demo API server down get a field that fails validation. */
function harmless(spec: RouteSpec, input: Input, scenarios: string[]): Input {
  const mutates = (spec.pattern === "/api/v1/demo/scenarios/[id]" && input.method === "POST") || spec.pattern === "/api/v1/demo/api-server";
  if (!mutates) return input;
  let id = "";
  try {
    id = decodeURIComponent(input.target.split("?")[0].split("/")[5] ?? "");
  } catch {}
  if (spec.pattern.endsWith("[id]") && !scenarios.includes(id.replace(/\/$/, ""))) return input;
  const text = input.body?.toString("utf8") ?? "";
  let value: unknown = text.trim() ? undefined : {};
  try {
    value ??= JSON.parse(text);
  } catch {}
  if (value === null || typeof value !== "object" || Array.isArray(value)) return input;
  const safe = spec.pattern.endsWith("[id]")
    ? { ...value, fuzz: 1 }
    : { ...value, state: (value as { state?: unknown }).state === "down" ? "sideways" : (value as { state?: unknown }).state };
  return { ...input, body: Buffer.from(JSON.stringify(safe)) };
}

async function pool<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

/** Fuzz inputs come from the site itself, and the webhook's from Alertmanager: past the forgery rules, to the routes. */
const SITE = { origin: ORIGIN, authorization: `Bearer ${WEBHOOK_TOKEN}` };

function send(base: URL, agent: Agent, input: Input): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers = { ...SITE, ...input.headers, ...(input.body ? { "content-length": String(input.body.length) } : {}) };
    const req = httpRequest(
      { host: base.hostname, port: base.port, method: input.method, path: input.target, headers, agent, timeout: 20_000, maxHeaderSize: 256 * 1024 },
      (res) => {
        if (res.headers["content-type"]?.startsWith("text/event-stream")) {
          res.destroy();
          return resolve({ status: res.statusCode });
        }
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode }));
        res.on("error", (e) => resolve({ status: res.statusCode, error: e.message }));
      },
    );
    req.on("connect", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode });
    });
    req.on("timeout", () => req.destroy(new Error("no answer in 20 s")));
    req.on("error", (e) => resolve({ error: e.message }));
    req.end(input.body);
  });
}

/** Exactly these bytes on a fresh connection, the body chunked; the status line is all that is read. */
function sendRaw(base: URL, input: Input): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(Number(base.port), base.hostname);
    let head = "";
    const done = (outcome: Outcome) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(20_000, () => done({ error: "no answer in 20 s" }));
    socket.on("data", (chunk) => {
      head += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) done({ status: Number(status[1]) });
      else if (head.length > 64) done({ error: `not an HTTP answer: ${JSON.stringify(head.slice(0, 64))}` });
    });
    socket.on("error", (e) => done({ error: e.message }));
    socket.on("close", () => done({ error: "closed without an answer" }));
    const lines = Object.entries({ ...SITE, ...input.headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    const chunked = input.body?.length ? `${input.body.length.toString(16)}\r\n${input.body.toString("latin1")}\r\n0\r\n\r\n` : "0\r\n\r\n";
    // No half-close: Node's server takes a client's FIN as the end of the exchange and drops its answer.
    socket.write(`${input.method} ${input.target} HTTP/1.1\r\nHost: ${base.host}\r\n${lines}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
    socket.write(Buffer.from(chunked, "latin1"));
  });
}

test("a 100 MB body gets a 413 and a streamed 600 MB one is cut off, without the server keeping either", async ({ baseURL, request }) => {
  test.setTimeout(60_000);
  const rss = async () => Number(/^process_resident_memory_bytes (\S+)$/m.exec(await (await request.get("/metrics")).text())![1]);
  const before = await rss();
  const base = new URL(baseURL!);
  const declared = await streamBody(base, "/api/v1/demo/scenarios/openbao-sealed", 100 * 1024 * 1024, true);
  expect(declared.status, declared.error).toBe(413);
  expect(declared.body).toBe(`{"error":"request body larger than ${API_BODY_LIMIT} bytes, the limit of POST /api/v1/demo/scenarios/[id]"}`);
  const streamed = await streamBody(base, "/api/v1/demo/api-server", 600 * 1024 * 1024, false);
  // Through the full server the client sometimes reads EPIPE before the 413 (the edge's own test reads the 413
  // every time); either way the server stopped taking the body long before 600 MB.
  if (streamed.status !== undefined) expect(streamed.status).toBe(413);
  else expect(streamed.error).toMatch(/EPIPE|ECONNRESET/);
  expect(streamed.sent).toBeLessThan(100 * 1024 * 1024);
  const grown = (await rss()) - before;
  console.log(`server memory grew by ${(grown / 1024 / 1024).toFixed(1)} MiB across both`);
  expect(grown).toBeLessThan(64 * 1024 * 1024);
  expect((await (await request.get("/api/v1/demo")).json()).scenarios.filter((s: { active: boolean }) => s.active)).toEqual([]);
});

/** Writes `size` bytes of "a" (declared up front, or chunked) until the server answers; what it answered and how much went out. */
function streamBody(base: URL, target: string, size: number, declare: boolean): Promise<{ status?: number; body: string; sent: number; error?: string }> {
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    // A declared body is offered as curl offers a large one, with Expect: 100-continue: nothing is sent unless accepted.
    const headers = {
      ...SITE,
      "content-type": "application/json",
      ...(declare ? { "content-length": String(size), expect: "100-continue" } : { "transfer-encoding": "chunked" }),
    };
    const req = httpRequest({ host: base.hostname, port: base.port, method: "POST", path: target, agent: false, headers }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString(), sent }));
      res.on("error", () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString(), sent }));
    });
    req.on("error", (e) => answered || resolve({ body: "", sent, error: e.message }));
    const pump = () => {
      while (!answered && sent < size && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered && !req.destroyed) req.end();
    };
    if (declare) req.once("continue", pump);
    else pump();
  });
}
