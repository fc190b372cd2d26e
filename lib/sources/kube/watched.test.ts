import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import type { DemoServer } from "@/lib/demo/cluster/server";
import type { Sources } from "@/lib/sources/sources";
import type { KubeAccess } from "./client";
import { startWatches, stopWatches, type Watches } from "./watched";
import { startDemoApi, type DemoApi } from "@/test/demo-api";
import { reporterMessage, waitFor } from "@/test/wait";

// The watched sources push what changed, as SourceStates carrying the objects: nothing is pulled back out
// of the watches later. Real client, the demo cluster's API server on loopback.

let server: DemoServer;
let access: KubeAccess;
let demo: DemoApi;
const FAST = { stallMs: 1_500, backoffInitialMs: 100, backoffMaxMs: 400 };

beforeAll(async () => {
  demo = await startDemoApi({ bookmarkIntervalMs: 200 });
  ({ server, access } = demo);
});
afterAll(() => demo.stop());

const until = waitFor(6000);

describe("startWatches", () => {
  it("pushes each watched source's state with its objects, and a change as it happens", async () => {
    let sources: Sources = {};
    const pushes: { names: string[]; changed: boolean }[] = [];
    const watches: Watches = startWatches(
      () => access,
      (update, changed) => {
        pushes.push({ names: Object.keys(update), changed });
        sources = { ...sources, ...update };
      },
      FAST,
    );
    try {
      await until(
        () => ["kubeapiserver", "nodes", "operator", "ebpf", "webhook", "endpoints"].every((n) => sources[n as keyof Sources]?.up),
        "every watched source up",
      );
      // One source per push, and the objects come with it.
      expect(pushes.every((p) => p.names.length === 1)).toBe(true);
      expect(sources.nodes?.value).toHaveLength(3);
      expect(sources.kubeapiserver).toMatchObject({ name: "kubeapiserver", up: true, watch: { lists: 1 } });
      expect(reporterMessage(sources.kubeapiserver?.value, "master-1")).toContain('"status":"healthy"');

      const before = pushes.length;
      setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
      await until(() => reporterMessage(sources.kubeapiserver?.value, "master-1").includes('"status":"error"'), "the unhealthy report pushed");
      expect(pushes.slice(before).some((p) => p.changed && p.names[0] === "kubeapiserver")).toBe(true);
      setScenario(server.cluster, "kms-plugin-unavailable", false);
    } finally {
      stopWatches(watches);
    }
  });

  it("keeps 'down since' from before a restart for a source that is still down", async () => {
    const since = "2026-11-20T10:00:00.000Z";
    const restored: Sources = {
      kubeapiserver: { name: "kubeapiserver", up: false, downSince: since, lastSuccess: "2026-11-20T09:59:00.000Z", value: { kept: true } },
    };
    await server.stop();
    let pushed: Sources = {};
    const watches = startWatches(
      () => access,
      (update) => (pushed = { ...pushed, ...update }),
      FAST,
      restored,
    );
    try {
      await until(() => pushed.kubeapiserver !== undefined, "the first failure pushed");
      expect(pushed.kubeapiserver).toMatchObject({ up: false, downSince: since, lastSuccess: "2026-11-20T09:59:00.000Z", value: { kept: true } });
    } finally {
      stopWatches(watches);
      await server.start();
    }
  });
});
