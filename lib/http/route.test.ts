import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Conflict, NotFound, Unavailable } from "@/lib/errors";
import { isEdgeHandler, route } from "./route";
import { HANDLER_METHODS, scanAppRoutes } from "./route-table";

// The web edge: every route handler of the app goes through it, and it parses, calls once and maps refusals
// as a client sees them (real Request objects, as Next hands them over; the domain calls are stand-ins).

const root = path.resolve(import.meta.dirname, "../..");
/** Event streams answer before they stream and never end; their owner wires them to the live bus. */
const STREAMS = ["/api/v1/clusters/[name]/events", "/api/v1/incidents/events"];

describe("every route handler", () => {
  it("is built by route(): the app's route files declare their input and one call, nothing by hand", async () => {
    const handlers = scanAppRoutes(path.join(root, "app")).filter((s) => s.kind === "handler" && !STREAMS.includes(s.pattern));
    expect(handlers.length).toBeGreaterThan(20);
    for (const spec of handlers) {
      const file = path.join(root, "app", spec.pattern, "route.ts");
      const mod = (await import(file)) as Record<string, unknown>;
      const methods = HANDLER_METHODS.filter((m) => typeof mod[m] === "function");
      expect(methods.length, spec.pattern).toBeGreaterThan(0);
      for (const m of methods) expect(isEdgeHandler(mod[m]), `${m} ${spec.pattern}`).toBe(true);
      // No answer or refusal built in the route file itself.
      expect(readFileSync(file, "utf8"), spec.pattern).not.toMatch(/next\/server|new Response|\btry\s*\{|\.safeParse\(/);
    }
  }, 120_000);

  it("lib/http imports no domain folder, so no lib folder can be in a cycle through it", () => {
    const dir = path.join(root, "lib/http");
    // lib/auth: the role check and audit of every route; it imports no folder that imports lib/http. lib/process-slot:
    // a leaf, where the hot reads the route modules register meet the edge of scripts/start.ts.
    const allowed = /^(node:|next\b|zod$|\.\/|@\/lib\/(errors|metrics|host-entry|process-slot|text\/|auth\/))/;
    for (const name of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const imports = [...readFileSync(path.join(dir, name), "utf8").matchAll(/^import[^"]*"([^"]+)"/gm)].map((m) => m[1]);
      for (const target of imports) expect(target, `lib/http/${name}`).toMatch(allowed);
    }
  });
});

const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  new NextRequest(`http://127.0.0.1:3000${url}`, { method: "POST", body, headers });

describe("route()", () => {
  const Params = z.object({ id: z.coerce.number({ message: "must be a number" }).int("must be a number") });
  const Query = z.strictObject({ format: z.enum(["a", "b"], { message: "must be a or b" }).optional() });

  it("refuses bad params and query together, before reading the body or calling the domain", async () => {
    const run = vi.fn();
    const handler = route({ role: "public", params: Params, query: Query, body: z.object({ x: z.number() }), run });
    const res = await handler(post("/things/x?format=c&colour=red", "{not json"), params({ id: "x" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "invalid request",
      fields: { id: ["must be a number"], format: ["must be a or b"], body: ['Unrecognized key: "colour"'] },
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("hands the parsed input to the one call and answers its result", async () => {
    const run = vi.fn(({ params, query, headers, body }) => ({ params, query, headers, body }));
    const handler = route({
      role: "public",
      params: Params,
      query: Query,
      headers: z.object({ "Idempotency-Key": z.string().max(5, "must be 1-5 characters").optional() }),
      body: z.object({ text: z.string() }),
      run,
      reply: { status: 201, headers: { "Cache-Control": "no-store" } },
    });
    const res = await handler(post("/things/7?format=b", '{"text":"a\\u0000b"}', { "idempotency-key": "k1" }), params({ id: "7" }));
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // The body went through the text boundary: the NUL is U+FFFD.
    expect(await res.json()).toEqual({ params: { id: 7 }, query: { format: "b" }, headers: { "Idempotency-Key": "k1" }, body: { text: "a\uFFFDb" } });
    expect(run).toHaveBeenCalledTimes(1);
    const long = await handler(post("/things/7", "{}", { "idempotency-key": "toolong" }), params({ id: "7" }));
    expect(await long.json()).toEqual({ error: "invalid request", fields: { "Idempotency-Key": ["must be 1-5 characters"] } });
  });

  it("maps what the domain refuses, and lets a fault through to Next's 500", async () => {
    const refuse = (error: Error) => route({ role: "public", run: () => Promise.reject(error) });
    const missing = await refuse(new NotFound("no thing 7", { extra: { id: 7 } }))(post("/things/7", ""));
    expect([missing.status, await missing.json()]).toEqual([404, { error: "no thing 7", id: 7 }]);
    const clash = await refuse(new Conflict("already done"))(post("/things/7", ""));
    expect([clash.status, await clash.json()]).toEqual([409, { error: "already done" }]);
    const later = await refuse(new Unavailable("busy", { retryAfterSeconds: 30, extra: { retry: true } }))(post("/things/7", ""));
    expect([later.status, later.headers.get("retry-after"), await later.json()]).toEqual([503, "30", { error: "busy", retry: true }]);
    await expect(refuse(new Error("database is down"))(post("/things/7", ""))).rejects.toThrow("database is down");
  });

  it("bounds a body: 413 past the route's limit, or the route's own refusal past its own rule", async () => {
    const run = vi.fn();
    const small = await route({ role: "public", body: z.unknown(), bodyLimit: 16, run })(post("/x", JSON.stringify({ a: "x".repeat(100) })));
    expect([small.status, await small.json()]).toEqual([413, { error: "request body larger than 16 bytes" }]);
    const overLimit = (size: { bytes: number }) => new Unavailable(`over by ${size.bytes - 16}`, { retryAfterSeconds: 30, extra: { retry: true } });
    const raw = route({ role: "public", rawBody: { limit: 16, overLimit }, run: ({ body }) => ({ body }) });
    const over = await raw(post("/x", "[1,2,3,4,5,6,7,8,9]"));
    expect([over.status, over.headers.get("retry-after"), await over.json()]).toEqual([503, "30", { error: "over by 3", retry: true }]);
    expect(await (await raw(post("/x", '"\\u0000"'))).json()).toEqual({ body: "\u0000" });
    const notJson = await raw(post("/x", ""));
    expect([notJson.status, await notJson.json()]).toEqual([400, { error: "invalid request", fields: { body: ["must be JSON"] } }]);
    expect(run).not.toHaveBeenCalled();
  });
});
