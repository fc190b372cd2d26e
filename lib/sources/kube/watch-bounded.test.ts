import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "@/lib/demo/cluster/fields";
import { findResource } from "@/lib/demo/cluster/resources";
import type { DemoServer } from "@/lib/demo/cluster/server";
import type { KubeAccess } from "./client";
import { ResourceWatch, type WatchTuning } from "./watch";
import { startDemoApi, type DemoApi } from "@/test/demo-api";
import { waitFor } from "@/test/wait";

// A watch by label across all namespaces, with a bound on what it keeps: the injected pods of a cluster
// that may run tens of thousands. Real client, the demo cluster's API server on loopback.

let server: DemoServer;
let access: KubeAccess;
let demo: DemoApi;
const FAST: WatchTuning = { stallMs: 3_000, backoffInitialMs: 100, backoffMaxMs: 400, timeoutSeconds: 300, notServedRetryMs: 60_000 };
const PODS = findResource("", "v1", "pods")!;

beforeAll(async () => {
  demo = await startDemoApi({ bookmarkIntervalMs: 200 });
  ({ server, access } = demo);
});
afterAll(() => demo.stop());

const pod = (namespace: string, name: string, inject: boolean, restartCount = 0): JsonObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, labels: inject ? { "cloudtaser.io/inject": "true" } : { app: name } },
  spec: { containers: [{ name: "app", image: "registry.example/app:1", command: ["/cloudtaser/wrapper"] }] },
  status: { phase: "Running", containerStatuses: [{ name: "app", restartCount }] },
});
const names = (w: ResourceWatch) => w.items().map((o) => (o as { metadata: { namespace: string; name: string } }).metadata.name);
const until = waitFor(6000);

describe("ResourceWatch with a label selector and a bound", () => {
  it("keeps only labelled objects from every namespace, at most the bound, and counts the rest", async () => {
    // The demo already runs one injected pod (payments/payments-api-…); add 6 more labelled and 3 not.
    for (let i = 0; i < 6; i++) server.cluster.store.put(PODS, pod(`team-${i % 2}`, `injected-${i}`, true));
    for (let i = 0; i < 3; i++) server.cluster.store.put(PODS, pod("team-0", `plain-${i}`, false));
    const w = new ResourceWatch(
      { path: "/api/v1/pods", labelSelector: "cloudtaser.io/inject=true", maxItems: 5 },
      () => access,
      () => {},
      FAST,
    );
    try {
      w.start();
      await until(() => w.state.synced && w.state.up, "the first list");
      expect(w.items()).toHaveLength(5);
      expect(names(w).some((n) => n.startsWith("plain-"))).toBe(false);
      // A LIST with a selector does not say how many are left, only that some are: at least one.
      expect(w.cut()).toBeGreaterThanOrEqual(1);
      const listed = w.cut()!;

      // A new labelled pod beyond the bound is counted, not kept; an unlabelled one is not even seen.
      server.cluster.store.put(PODS, pod("team-2", "injected-late", true));
      server.cluster.store.put(PODS, pod("team-2", "plain-late", false));
      await until(() => w.cut() === listed + 1, "the late pod counted");
      expect(w.items()).toHaveLength(5);
      expect(names(w)).not.toContain("injected-late");

      // A kept pod deleted makes room: the late pod's next change is kept, and no longer counted.
      const [first] = w.items() as { metadata: { namespace: string; name: string } }[];
      server.cluster.store.delete(PODS, first.metadata.namespace, first.metadata.name);
      await until(() => w.items().length === 4, "the deleted pod gone");
      server.cluster.store.put(PODS, pod("team-2", "injected-late", true, 1));
      await until(() => names(w).includes("injected-late"), "the late pod kept once there is room");
      expect(w.items()).toHaveLength(5);
      expect(w.cut()).toBe(listed);
    } finally {
      w.stop();
    }
  });
});
