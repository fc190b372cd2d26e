import * as k8s from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DemoCluster } from "./cluster";
import { kubeconfigFor } from "./kubeconfig";
import { setScenario } from "./scenarios";
import { DemoServer } from "./server";
import { rawRequest } from "@/test/demo-request";
import { waitFor } from "@/test/wait";

// The unmodified client, through an ordinary kubeconfig, against the simulator on loopback.

let server: DemoServer;
let kc: k8s.KubeConfig;
const PATH = "/apis/operator.openshift.io/v1/kubeapiservers";

beforeEach(async () => {
  server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }), bookmarkIntervalMs: 150 });
  const endpoints = await server.start();
  kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfigFor("demo", endpoints));
});
afterEach(() => server.stop());

const until = waitFor(5000);

describe("the real client against the simulator", () => {
  it("gets, lists and is refused writes with the read-only credentials", async () => {
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const cr = (await custom.getClusterCustomObject({ group: "operator.openshift.io", version: "v1", plural: "kubeapiservers", name: "cluster" })) as {
      status: { conditions: { type: string }[] };
    };
    expect(cr.status.conditions.map((c) => c.type)).toContain("KMSHealthReporter_master-2");
    const core = kc.makeApiClient(k8s.CoreV1Api);
    expect((await core.listNode()).items.map((n) => n.metadata?.name)).toEqual(["master-0", "master-1", "master-2"]);
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const ds = await apps.readNamespacedDaemonSet({ name: "cloudtaser-ebpf", namespace: "cloudtaser-system" });
    expect(ds.status?.numberReady).toBe(3);
    await expect(core.patchNode({ name: "master-0", body: { metadata: { labels: { a: "b" } } } })).rejects.toMatchObject({ code: 403 });
  });

  it("sends bookmarks to a watch that asks for them, and initial events ending with a marked bookmark", async () => {
    const events: { type: string; annotations?: Record<string, string> }[] = [];
    const watch = new k8s.Watch(kc);
    const request = await watch.watch(
      PATH,
      { allowWatchBookmarks: true, sendInitialEvents: true, resourceVersionMatch: "NotOlderThan" },
      (type, obj) => events.push({ type, annotations: obj?.metadata?.annotations }),
      () => undefined,
    );
    await until(() => events.filter((e) => e.type === "BOOKMARK").length >= 3, "three bookmarks");
    request.abort();
    expect(events[0].type).toBe("ADDED");
    expect(events[1]).toEqual({ type: "BOOKMARK", annotations: { "k8s.io/initial-events-end": "true" } });
  });

  it("sends a bookmark on demand that comes after every change made before it (what tests wait on)", async () => {
    const events: { type: string; rv?: string }[] = [];
    // Long periodic bookmarks: the one seen below is the one asked for.
    await server.stop();
    server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }), bookmarkIntervalMs: 600_000 });
    kc.loadFromString(kubeconfigFor("demo", await server.start()));
    const request = await new k8s.Watch(kc).watch(
      PATH,
      { allowWatchBookmarks: true },
      (type, obj) => events.push({ type, rv: obj?.metadata?.resourceVersion }),
      () => undefined,
    );
    await until(() => events.length > 0, "the initial ADDED");
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    const target = server.bookmarkNow();
    await until(() => events.some((e) => e.type === "BOOKMARK"), "the bookmark asked for");
    request.abort();
    const at = events.findIndex((e) => e.type === "BOOKMARK");
    expect(events[at].rv).toBe(target);
    // The change to master-1's reporter condition arrived before the bookmark, with a lower resourceVersion.
    const changed = events.slice(0, at).filter((e) => e.type === "MODIFIED");
    expect(changed.length).toBeGreaterThan(0);
    expect(Number(changed.at(-1)!.rv)).toBeLessThanOrEqual(Number(target));
  });

  it("answers a too-old resourceVersion with 410, and an informer relists and carries on", async () => {
    const watch = new k8s.Watch(kc);
    let error: { type: string; code?: number } | undefined;
    await new Promise<void>((resolve) => {
      void watch.watch(
        PATH,
        { resourceVersion: "1" },
        (type, obj) => (error = { type, code: obj?.code }),
        () => resolve(),
      );
    });
    expect(error).toEqual({ type: "ERROR", code: 410 });

    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const lists: number[] = [];
    const informer = k8s.makeInformer(kc, PATH, async () => {
      lists.push(Date.now());
      return (await custom.listClusterCustomObject({
        group: "operator.openshift.io",
        version: "v1",
        plural: "kubeapiservers",
      })) as k8s.KubernetesListObject<k8s.KubernetesObject>;
    });
    const messages: string[] = [];
    informer.on("update", (obj) => messages.push(JSON.stringify((obj as { status: unknown }).status)));
    // A restarted API server drops the watch and forgets its history; the monitor restarts the informer.
    informer.on("error", () => setTimeout(() => void informer.start(), 50));
    await informer.start();
    expect(lists).toHaveLength(1);

    await server.restart();
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    await until(() => messages.some((m) => m.includes("connection refused")), "the update after the restart", 8000);
    await informer.stop();
  });

  it("serves TLS that the client verifies with the kubeconfig's CA, and that a client without it refuses", async () => {
    const text = kubeconfigFor("demo", server.endpoints());
    expect(text).toContain("certificate-authority-data:");
    expect(text).not.toContain("insecure-skip-tls-verify");
    expect(server.endpoints().url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const stranger = new k8s.KubeConfig();
    stranger.loadFromString(text.replace(/certificate-authority-data: \S+/, ""));
    const refused = await stranger
      .makeApiClient(k8s.CoreV1Api)
      .listNode()
      .catch((error: Error) => error);
    expect(((refused as Error).cause as { code?: string } | undefined)?.code).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
    // The certificate names 127.0.0.1 and localhost, as a client connecting either way checks.
    const byName = new k8s.KubeConfig();
    byName.loadFromString(text.replace("https://127.0.0.1:", "https://localhost:"));
    expect((await byName.makeApiClient(k8s.CoreV1Api).listNode()).items).toHaveLength(3);
  });

  it("answers every request without a token with a 401 Status", async () => {
    const response = await rawRequest(server.endpoints(), "/api/v1/nodes");
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Unauthorized",
      reason: "Unauthorized",
      code: 401,
    });
  });
});
