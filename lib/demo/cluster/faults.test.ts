import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DemoCluster } from "./cluster";
import { listScenarios } from "./scenarios";
import { DemoServer, type DemoEndpoints } from "./server";
import { openStream, rawRequest } from "@/test/demo-request";
import { waitFor } from "@/test/wait";

// The API faults as a client meets them on the wire: real sockets on loopback, raw responses.

let server: DemoServer;
let ep: DemoEndpoints;
const NODES = "/api/v1/nodes";
const CR_WATCH = "/apis/operator.openshift.io/v1/kubeapiservers?watch=true&allowWatchBookmarks=true";

beforeEach(async () => {
  server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }), bookmarkIntervalMs: 100 });
  ep = await server.start();
});
afterEach(() => server.stop());

const get = (path: string, timeoutMs = 3000) => rawRequest(ep, path, { token: ep.readToken, timeoutMs });
const until = waitFor(4000);

describe("API faults", () => {
  it("throttle: every API request, watches and health included, gets APF's 429 with Retry-After; OpenBao is not the API server", async () => {
    server.faults.set({ kind: "throttle", retryAfterSeconds: 7 });
    expect(server.faults.current).toEqual({ kind: "throttle", retryAfterSeconds: 7 });
    for (const path of [NODES, `${NODES}?watch=true`, "/apis/operator.openshift.io/v1/kubeapiservers/cluster", "/readyz", "/version"]) {
      const r = await get(path);
      expect(r.status, path).toBe(429);
      expect(r.headers["retry-after"], path).toBe("7");
      expect(r.headers["x-kubernetes-pf-flowschema-uid"], path).toBeTruthy();
      expect(JSON.parse(r.body), path).toEqual({
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        code: 429,
        reason: "TooManyRequests",
        message: "Too many requests, please try again later.",
        details: { retryAfterSeconds: 7 },
      });
    }
    expect((await rawRequest(ep, "/v1/sys/health")).status).toBe(200);
    server.faults.set({ kind: "throttle", retryAfterSeconds: 2, status: 503 });
    const unavailable = await get(NODES);
    expect([unavailable.status, unavailable.headers["retry-after"], JSON.parse(unavailable.body).reason]).toEqual([503, "2", "ServiceUnavailable"]);
    server.faults.clear();
    expect(server.faults.current).toBeUndefined();
    expect((await get(NODES)).status).toBe(200);
  });

  it("blackhole: a request is accepted and never answered, open watches fall silent; clearing brings answers back", async () => {
    const lines: string[] = [];
    const watch = openStream(ep, CR_WATCH, ep.readToken, (l) => lines.push(l));
    await until(() => lines.some((l) => l.includes('"BOOKMARK"')), "a bookmark");
    server.faults.set({ kind: "blackhole" });
    await new Promise((r) => setTimeout(r, 150));
    const seen = lines.length;
    await expect(get(NODES, 600)).rejects.toThrow("no answer");
    expect(lines.length, "the open watch sent something during the blackhole").toBe(seen);
    server.faults.clear();
    expect((await get(NODES)).status).toBe(200);
    await until(() => lines.length > seen, "the watch to speak again");
    watch.abort();
  });

  it("slow: the answer comes, but only after the delay", async () => {
    server.faults.set({ kind: "slow", delayMs: 800 });
    await expect(get(NODES, 300)).rejects.toThrow("no answer");
    expect((await get(NODES, 5000)).status).toBe(200);
  });

  it("expire-on-resume: a watch from a resourceVersion gets the 410 ERROR event, a fresh watch does not", async () => {
    const rv = JSON.parse((await get(NODES)).body).metadata.resourceVersion as string;
    server.faults.set({ kind: "expire-on-resume" });
    const resumed = await get(`${NODES}?watch=1&resourceVersion=${rv}`);
    expect(resumed.status).toBe(200);
    const event = JSON.parse(resumed.body.trim());
    expect(event).toMatchObject({ type: "ERROR", object: { kind: "Status", code: 410, reason: "Expired" } });
    expect(event.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    const lines: string[] = [];
    const fresh = openStream(ep, `${NODES}?watch=true`, ep.readToken, (l) => lines.push(l));
    await until(() => lines.length >= 3, "the initial ADDED events");
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(["ADDED", "ADDED", "ADDED"]);
    fresh.abort();
  });

  it("resetWatches: every open watch's connection is cut at once, not ended cleanly", async () => {
    const lines: string[] = [];
    const watch = openStream(ep, CR_WATCH, ep.readToken, (l) => lines.push(l));
    await until(() => lines.length > 0, "the first event");
    expect(server.faults.resetWatches()).toBe(1);
    const { error } = await watch.ended;
    expect(error?.code ?? error?.message).toMatch(/ECONNRESET|aborted/);
  });

  it("restart: objects survive, the resourceVersion history is new and an old resourceVersion answers 410", async () => {
    const before = JSON.parse((await get(NODES)).body);
    await server.restart();
    const after = JSON.parse((await get(NODES)).body);
    expect(after.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(
      before.items.map((n: { metadata: { name: string } }) => n.metadata.name),
    );
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    const resumed = JSON.parse((await get(`${NODES}?watch=true&resourceVersion=${before.metadata.resourceVersion}`)).body.trim());
    expect(resumed).toMatchObject({ type: "ERROR", object: { code: 410, reason: "Expired" } });
  });

  it("refuses a fault it cannot apply, with the reason", () => {
    expect(() => server.faults.set({ kind: "throttle", retryAfterSeconds: -1 })).toThrow(/retryAfterSeconds must be a whole number/);
    expect(() => server.faults.set({ kind: "slow", delayMs: Number.NaN })).toThrow(/delayMs must be a number/);
    expect(() => server.faults.set({ kind: "meteor" } as never)).toThrow(/no API fault "meteor"/);
    expect(server.faults.current).toBeUndefined();
  });

  it("are Game-day scenarios: injected and cleared through the control API, listed as API faults", async () => {
    const control = (method: string, id: string) => rawRequest(ep, `/demo/v1/scenarios/${id}`, { method, token: ep.adminToken });
    expect((await control("POST", "api-throttled")).status).toBe(200);
    expect((await get(NODES)).status).toBe(429);
    expect(listScenarios(server.cluster).find((s) => s.id === "api-throttled")).toMatchObject({ active: true, api: true, catalog: null, variant: "429" });
    expect((await control("DELETE", "api-throttled")).status).toBe(200);
    expect((await get(NODES)).status).toBe(200);

    const rv = JSON.parse((await get(NODES)).body).metadata.resourceVersion as string;
    const restarted = await control("POST", "api-restart");
    expect(restarted.status).toBe(200);
    expect(JSON.parse(restarted.body).scenarios.find((s: { id: string }) => s.id === "api-restart")).toMatchObject({ active: false, oneShot: true });
    expect(JSON.parse((await get(`${NODES}?watch=true&resourceVersion=${rv}`)).body.trim()).object.code).toBe(410);
    expect((await control("POST", "api-blackholed")).status).toBe(200);
    expect(server.faults.current).toEqual({ kind: "blackhole" });
  });
});
