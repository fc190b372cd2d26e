import type { IncomingMessage } from "node:http";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ThrottledSources } from "@/components/health/throttled-sources";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { pollUntil, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { pollOnce } from "./monitor";

// The monitor against the simulated API server's faults, over HTTP with the real client and the
// server's real bookmark cadence (one a minute): what the health page and API say while the API
// server throttles, and how soon quiet sources are up again after an outage.

let sim: DemoMonitor;
const requests: { at: number; url: string }[] = [];
const listen = () =>
  // The simulator's HTTP server is private; element access reaches it for this test alone.
  sim.server.onRequest((req: IncomingMessage) => requests.push({ at: Date.now(), url: req.url ?? "" }));

beforeAll(async () => {
  sim = await startDemoMonitor();
  listen();
});
afterAll(() => sim.stop());

type Health = Awaited<ReturnType<typeof pollOnce>>;
const source = (h: Health, name: string) => h.sources.find((s) => s.name === name);
const QUIET = ["nodes", "webhook", "ebpf", "operator", "endpoints"];

describe("monitor under API faults", () => {
  it("a 429 with Retry-After is throttling: the cluster is not 'unreachable', sources say throttled, and probes wait Retry-After", async () => {
    const { server, entry } = sim;
    await pollUntil(entry, (h) => h.summary.state === "ok", "a healthy first read");
    server.faults.set({ kind: "throttle", retryAfterSeconds: 3 });
    server.faults.resetWatches();
    const from = Date.now();
    const rounds: Health[] = [];
    const throttled = await pollUntil(
      entry,
      (h) => (rounds.push(h), ["kubeapiserver", "nodes", "readyz", "kmsProviders"].every((n) => source(h, n)?.throttled)),
      "throttled sources",
    );
    while (Date.now() - from < 3500) {
      rounds.push(await pollOnce(entry));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(rounds.filter((h) => /unreachable/.test(h.summary.line)).map((h) => h.summary.line)).toEqual([]);
    expect(rounds.flatMap((h) => h.sources.filter((s) => !s.up && s.name !== "metrics").map((s) => `${s.name}: ${s.lastError}`))).toEqual([]);
    expect(source(throttled, "kubeapiserver")).toMatchObject({
      up: true,
      throttled: { status: 429, retryAfterSeconds: 3 },
      lastError: expect.stringMatching(/429 Too many requests/),
    });
    expect(throttled.matrix?.cells).toHaveLength(3); // the last-known matrix stays on the page
    // About 35 rounds in 3.5 s, yet /readyz was asked at most once per Retry-After: counted within those 3.5 s, as a
    // last round a loaded machine ran late may rightly ask again once 3 s more have passed.
    expect(requests.filter((r) => r.at >= from && r.at < from + 3500 && r.url.startsWith("/readyz")).length).toBeLessThanOrEqual(2);
    const page = renderToStaticMarkup(createElement(ThrottledSources, { sources: throttled.sources, checkedAt: throttled.checkedAt }));
    expect(page).toMatch(/kubeapiserver.*: throttled by the API server \(HTTP 429\), retrying in [1-4] s; throttled since 20\d\d-/);

    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-0" });
    server.faults.clear();
    const after = await pollUntil(
      entry,
      (h) => h.summary.state === "degraded" && h.sources.every((s) => !s.throttled),
      "the change made while throttled, and no source throttled",
      8000,
    );
    expect(after.matrix?.cells.find((c) => c.node === "master-0")?.status).toBe("error");
    setScenario(server.cluster, "kms-plugin-unavailable", false);
    await pollUntil(entry, (h) => h.summary.state === "ok", "healthy again");
  });

  it("after an outage, quiet watches (nodes, webhook, eBPF DaemonSet) are up as soon as the API server accepts their WATCH", async () => {
    const { server, entry } = sim;
    await pollUntil(entry, (h) => h.sources.every((s) => s.up), "every source up");
    await server.stop();
    await pollUntil(entry, (h) => QUIET.every((n) => source(h, n)?.up === false), "the quiet watches to go down");
    await server.start();
    listen();
    // The simulator sends bookmarks once a minute and these objects do not change: only the accepted WATCH says "up".
    const back = await pollUntil(entry, (h) => h.sources.every((s) => s.up), "every source up again", 12_000);
    expect(back.summary.state).toBe("ok");
    expect(back.sources.filter((s) => s.downSince)).toEqual([]);
  });
});
