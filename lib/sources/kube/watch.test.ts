import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import type { DemoServer } from "@/lib/demo/cluster/server";
import type { KubeAccess } from "./client";
import { ResourceWatch, type WatchTuning } from "./watch";
import { startDemoApi, type DemoApi } from "@/test/demo-api";
import { reporterMessage, waitFor } from "@/test/wait";

// The monitor's watches with the real client against the simulated API server on loopback:
// what the page shows after a change, an API-server restart, an outage and a silent watch.

let server: DemoServer;
let access: KubeAccess;
let demo: DemoApi;
const watches: ResourceWatch[] = [];
const FAST: WatchTuning = { stallMs: 1_500, backoffInitialMs: 100, backoffMaxMs: 400, timeoutSeconds: 300, notServedRetryMs: 60_000 };
const CR = { path: "/apis/operator.openshift.io/v1/kubeapiservers", name: "cluster" };

beforeAll(async () => {
  demo = await startDemoApi({ bookmarkIntervalMs: 200 });
  ({ server, access } = demo);
});
afterAll(() => demo.stop());
beforeEach(() => {
  server.watchesStalled = false;
});
afterEach(async () => {
  for (const w of watches.splice(0)) w.stop();
  server.cluster.scenarios.splice(0).forEach((s) => setScenario(server.cluster, s.id, false));
  // A test that stopped the API server starts it again (on the same port, as a restarted server).
  if (!server.running) await server.start();
});

function watch(spec: { path: string; name?: string }, tuning = FAST) {
  let changes = 0;
  const w = new ResourceWatch(
    spec,
    () => access,
    (changed) => void (changed && changes++),
    tuning,
  );
  watches.push(w);
  w.start();
  return { w, changes: () => changes };
}

const until = waitFor(6000);

describe("ResourceWatch", () => {
  it("lists, then follows changes as they happen, and bookmarks keep it current without changes", async () => {
    const { w, changes } = watch(CR);
    await until(() => w.state.synced, "the first list");
    expect(w.state).toMatchObject({ up: true, lists: 1 });
    expect(reporterMessage(w.object(), "master-1")).toContain('"status":"healthy"');
    const rv = Number(w.state.resourceVersion);
    const seen = changes();
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    await until(() => reporterMessage(w.object(), "master-1").includes('"status":"error"'), "the unhealthy report");
    expect(changes()).toBeGreaterThan(seen);
    expect(w.state.lists).toBe(1); // the change came by watch, not by listing again
    const afterChange = Number(w.state.resourceVersion);
    expect(afterChange).toBeGreaterThan(rv);
  });

  it("watches a whole collection: nodes added and removed", async () => {
    const { w } = watch({ path: "/api/v1/nodes" });
    await until(() => w.items().length === 3, "three nodes");
    setScenario(server.cluster, "node-replaced", true, { node: "master-2" });
    await until(
      () =>
        w
          .items()
          .some(
            (n) =>
              (n as { metadata: { name: string } }).metadata.name !== "master-2" &&
              !["master-0", "master-1"].includes((n as { metadata: { name: string } }).metadata.name),
          ),
      "the replacement node",
    );
    expect(w.items().map((n) => (n as { metadata: { name: string } }).metadata.name)).not.toContain("master-2");
  });

  it("says a named object is gone (null) when it is deleted, and back when it returns", async () => {
    const { w } = watch({ path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", name: "cloudtaser-operator-webhook" });
    await until(() => w.object() !== undefined && w.object() !== null, "the webhook configuration");
    setScenario(server.cluster, "webhook-misbehaving", true);
    await until(() => w.object() === null, "the deletion");
    setScenario(server.cluster, "webhook-misbehaving", false);
    await until(() => w.object() !== null, "the webhook configuration again");
  });

  it("relists after 410 Gone when its resourceVersion is older than the restarted API server's history", async () => {
    const { w } = watch(CR);
    await until(() => w.state.synced, "the first list");
    // While the API server is down, the plugin fails and the server's watch history is compacted.
    await server.stop();
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-0" });
    server.cluster.store.compactAll();
    await server.start();
    await until(() => w.state.expired >= 1 && w.state.lists >= 2, "the 410 and a fresh list");
    await until(() => reporterMessage(w.object(), "master-0").includes('"status":"error"'), "the change made while it was away");
    setScenario(server.cluster, "kms-plugin-unavailable", false);
    await until(() => reporterMessage(w.object(), "master-0").includes('"status":"healthy"'), "a change after the relist, by watch");
    expect(w.state.up).toBe(true);
  });

  it("goes down with 'down since' while the API is unreachable, keeps the last objects, and recovers by itself", async () => {
    const { w } = watch(CR);
    await until(() => w.state.synced, "the first list");
    const before = reporterMessage(w.object(), "master-0");
    const stoppedAt = Date.now();
    await server.stop();
    await until(() => !w.state.up, "the source to go down");
    expect(Date.parse(w.state.downSince!)).toBeGreaterThanOrEqual(stoppedAt - 1000);
    expect(w.state.lastError).toMatch(/ECONNREFUSED|refused|fetch failed|closed/i);
    expect(reporterMessage(w.object(), "master-0")).toBe(before);
    await server.start();
    await until(() => w.state.up, "the source to come back", 8000);
    expect(w.state.downSince).toBeUndefined();
  });

  it("restarts a watch that went silent (no event, no bookmark) and picks up what it missed", async () => {
    const { w } = watch(CR);
    await until(() => w.state.synced, "the first list");
    server.watchesStalled = true;
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-2" });
    await until(() => w.state.stalls >= 1, "the watchdog", 5000);
    expect(w.state.lastError).toMatch(/went silent/);
    // The restart lists afresh, so the change the silent watch never delivered is seen.
    await until(() => reporterMessage(w.object(), "master-2").includes('"status":"error"'), "the missed change");
    server.watchesStalled = false;
    await until(() => w.state.up, "the watch to be healthy again");
  });

  it("treats a resource type the cluster does not serve as an answer (null), not an outage", async () => {
    const { w } = watch({ path: "/apis/example.com/v1/widgets", name: "cluster" });
    await until(() => w.state.synced, "the answer");
    expect(w.state).toMatchObject({ up: true, notServed: true });
    expect(w.object()).toBeNull();
  });
});
