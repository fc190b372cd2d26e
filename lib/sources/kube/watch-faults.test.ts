import type { IncomingMessage } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import type { DemoServer } from "@/lib/demo/cluster/server";
import type { KubeAccess } from "./client";
import { ResourceWatch, type WatchTuning } from "./watch";
import { startDemoApi, type DemoApi } from "@/test/demo-api";
import { reporterMessage, waitFor } from "@/test/wait";

// The watches against the simulated API server's faults (lib/demo/cluster/faults.ts) over loopback, with the
// server's real bookmark cadence (one a minute): what a user sees while the API server throttles,
// blackholes, answers slowly, resets streams, expires resumes or restarts, and after it recovers.

let server: DemoServer;
let access: KubeAccess;
let demo: DemoApi;
let requests: { at: number; url: string }[];
const watches: ResourceWatch[] = [];
const QUICK: WatchTuning = { stallMs: 60_000 * 3, backoffInitialMs: 100, backoffMaxMs: 400, timeoutSeconds: 300, notServedRetryMs: 60_000 };
const WEBHOOK = { path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", name: "cloudtaser-operator-webhook" };
const CR = { path: "/apis/operator.openshift.io/v1/kubeapiservers", name: "cluster" };

beforeEach(async () => {
  // No bookmarkIntervalMs: the simulator's default, a minute, as a real API server sends them.
  demo = await startDemoApi();
  ({ server, access } = demo);
  requests = [];
  server.onRequest((req: IncomingMessage) => requests.push({ at: Date.now(), url: req.url ?? "" }));
});
afterEach(async () => {
  for (const w of watches.splice(0)) w.stop();
  await demo.stop();
});

function watch(spec: { path: string; name?: string }, tuning: Partial<WatchTuning> = {}) {
  const w = new ResourceWatch(
    spec,
    () => access,
    () => undefined,
    { ...QUICK, ...tuning },
  );
  watches.push(w);
  w.start();
  return w;
}

const until = waitFor(6000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const toPath = (p: string) => requests.filter((r) => r.url.startsWith(p));

describe("ResourceWatch under API faults", () => {
  it("is up again as soon as the returning API server accepts the WATCH, long before a quiet resource's first bookmark", async () => {
    const w = watch(WEBHOOK);
    await until(() => w.state.synced, "the first list");
    await server.stop();
    await until(() => !w.state.up, "the watch to go down");
    await server.start();
    // Bookmarks come once a minute and the webhook configuration does not change: only the accepted WATCH says "up".
    await until(() => w.state.up, "the watch to be up again", 5000);
    expect(w.state.downSince).toBeUndefined();
    expect(w.state.lists).toBe(1); // resumed from its resourceVersion, not listed again
  });

  it("a watch down for a network reason tries again at once when nudged (another request was just answered), not after its backoff", async () => {
    const w = watch(WEBHOOK, { backoffInitialMs: 4000, backoffMaxMs: 10_000 });
    await until(() => w.state.synced, "the first list");
    await server.stop();
    await until(() => !w.state.up, "the watch to go down", 12_000);
    await server.start();
    w.nudge(); // what the monitor does when the same round's /readyz is answered
    await until(() => w.state.up, "the watch up again before its backoff (4 s or more) ends", 1500);
  });

  it("throttle 429: stays up with its objects, says it is throttled, and asks again only after Retry-After", async () => {
    const w = watch(CR);
    await until(() => w.state.synced, "the first list");
    server.faults.set({ kind: "throttle", retryAfterSeconds: 2 });
    const from = Date.now();
    server.faults.resetWatches();
    await until(() => w.state.throttled !== undefined, "the throttled state");
    expect(w.state).toMatchObject({ up: true, throttled: { status: 429, retryAfterSeconds: 2 } });
    expect(w.state.downSince).toBeUndefined();
    expect(w.state.lastError).toMatch(/429 Too many requests/);
    expect(reporterMessage(w.object(), "master-0")).toContain('"status":"healthy"'); // the last-known objects stay
    await sleep(4500);
    expect(w.state.up).toBe(true);
    // The APF stand-in answered each try at once; the watch waited out Retry-After between them. Counted within the
    // 4.5 s asked for: a loaded machine may wake the test later, when a further try is due and right.
    const tries = toPath(CR.path)
      .filter((r) => r.at >= from)
      .map((r) => r.at);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(tries.filter((at) => at < from + 4500).length).toBeLessThanOrEqual(3);
    for (let i = 1; i < tries.length; i++) expect(tries[i] - tries[i - 1]).toBeGreaterThanOrEqual(2000);
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-0" });
    server.faults.clear();
    await until(() => reporterMessage(w.object(), "master-0").includes('"status":"error"'), "the change made while throttled", 5000);
    expect(w.state.throttled).toBeUndefined();
  });

  it("throttle 503 with Retry-After: the same, throttled rather than down, on the first LIST too", async () => {
    server.faults.set({ kind: "throttle", retryAfterSeconds: 1, status: 503 });
    const w = watch({ path: "/api/v1/nodes" });
    await until(() => w.state.throttled !== undefined, "the throttled state");
    expect(w.state).toMatchObject({ up: true, synced: false, throttled: { status: 503, retryAfterSeconds: 1 } });
    await sleep(2500);
    expect(w.state.up).toBe(true);
    server.faults.clear();
    await until(() => w.items().length === 3, "the three nodes", 3000);
    expect(w.state.throttled).toBeUndefined();
  });

  it("blackhole: goes down once the stall bound passes with nothing heard, and comes back after it clears", async () => {
    const w = watch(CR, { stallMs: 1500 });
    // The stall bound is what is under test: the blackhole must strike a watch stream already open. Struck between the
    // LIST and the WATCH, the WATCH would time out unanswered instead (also "down", by the request's own bound).
    await until(() => w.state.synced && server.openWatchCount === 1, "the first list and its watch stream open");
    server.faults.set({ kind: "blackhole" });
    await until(() => !w.state.up, "the watch to go down", 8000);
    expect(w.state.lastError).toMatch(/went silent|no answer|timed out/);
    expect(w.state.stalls).toBeGreaterThanOrEqual(1);
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    server.faults.clear();
    await until(() => w.state.up && reporterMessage(w.object(), "master-1").includes('"status":"error"'), "the watch back with the change", 8000);
  });

  it("slow answers: a reconnect that takes seconds is not an outage, and the change is shown once it arrives", async () => {
    const w = watch(CR);
    await until(() => w.state.synced, "the first list");
    server.faults.set({ kind: "slow", delayMs: 1500 });
    server.faults.resetWatches();
    await sleep(500);
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-2" });
    await until(() => reporterMessage(w.object(), "master-2").includes('"status":"error"'), "the change through the slow reconnect", 5000);
    expect(w.state.up).toBe(true);
    expect(w.state.downSince).toBeUndefined();
  });

  it("reset watch streams: reconnects and resumes without relisting or going down", async () => {
    const w = watch(CR);
    await until(() => w.state.synced, "the first list");
    for (let i = 0; i < 3; i++) {
      server.faults.resetWatches();
      await sleep(1200);
    }
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-0" });
    await until(() => reporterMessage(w.object(), "master-0").includes('"status":"error"'), "the change after the resets");
    expect(w.state).toMatchObject({ up: true, lists: 1 });
  });

  it("410 on every resume: relists, backs off instead of looping, and shows changes", async () => {
    const w = watch(CR);
    await until(() => w.state.synced, "the first list");
    server.faults.set({ kind: "expire-on-resume" });
    server.faults.resetWatches();
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    await until(() => reporterMessage(w.object(), "master-1").includes('"status":"error"'), "the change via a relist");
    const from = Date.now();
    await sleep(2000);
    // A relist loop would LIST hundreds of times in 2 s; the backoff (0.1 s doubling to 0.4 s here) allows a handful.
    // Counted within those 2 s, however late a loaded machine wakes the test.
    expect(toPath(CR.path).filter((r) => r.at >= from && r.at < from + 2000 && !r.url.includes("watch=true")).length).toBeLessThanOrEqual(12);
    expect(w.state.up).toBe(true);
    server.faults.clear();
    setScenario(server.cluster, "kms-plugin-unavailable", false);
    await until(() => reporterMessage(w.object(), "master-1").includes('"status":"healthy"'), "the change after the fault, by watch");
  });

  it("restart with a new resourceVersion history: relists after 410 and shows the change made while it was down", async () => {
    const w = watch(CR);
    await until(() => w.state.synced, "the first list");
    await server.stop();
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-2" });
    server.cluster.store.newHistory();
    await server.start();
    await until(() => w.state.expired >= 1 && w.state.lists >= 2, "the 410 and a fresh list");
    await until(() => reporterMessage(w.object(), "master-2").includes('"status":"error"'), "the change made during the restart");
    expect(Number(w.state.resourceVersion)).toBeGreaterThan(100_000);
    expect(w.state.up).toBe(true);
  });
});
