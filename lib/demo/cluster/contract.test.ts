import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseKmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import { parseVerboseHealth } from "@/test/parse-verbose-health";
import { parseKubeStatus } from "@/test/parse-kube-status";
import { parseOpenBaoHealth, parseTransitKey } from "@/lib/sources/probes/parse-openbao";
import { parsePrometheusText, type ParsedPrometheus } from "@/test/parse-prometheus";
import { parseWatchStream } from "@/test/parse-watch-events";
import { readClusterOperator } from "@/lib/sources/kube/read-cluster-operator";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { readDaemonSet, readDeployment, readWebhookConfiguration } from "@/lib/sources/kube/read-workloads";
import { readInjectedPod } from "@/lib/sources/kube/read-pods";
import { DemoCluster } from "./cluster";
import type { JsonObject } from "./fields";
import { renderApiserverMetrics, renderKmsProviders, renderOpenBaoHealth, renderPluginMetrics, renderReadyz, renderTransitKey } from "./render-endpoints";
import { findResource } from "./resources";
import { DemoServer } from "./server";
import { openStream } from "@/test/demo-request";

// Every fixture of ../shared/fixtures (copied to test/fixtures) goes through Faultline's own parsers,
// and so does what the simulator serves for the same situation: the two must read the same.

const text = (name: string) => readFileSync(`test/fixtures/${name}`, "utf8");
const json = (name: string) => JSON.parse(text(name));
const body = (name: string) =>
  text(name)
    .split("\n")
    .filter((l) => !l.startsWith("#"))
    .join("\n");

/** The fixtures' cluster: keyIDs 1 and 2 on master-0..2; master-1's keyID 2 lacks decrypt permission; master-2 stale. */
function fixtureCluster(design: "condition" | "typed"): DemoCluster {
  let now = new Date("2026-08-20T10:11:37Z");
  const cluster = new DemoCluster({ nodes: 3, pluginsPerNode: 2, design, now: () => now });
  const [m0, m1, m2] = cluster.model.nodes;
  Object.assign(m1.plugins[0], { health: "unhealthy", detail: "credential lacks decrypt permission" });
  m2.reporterRunning = false;
  m1.reporterRunning = false;
  now = new Date("2026-08-20T10:14:41Z");
  cluster.report();
  m0.reporterRunning = false;
  m1.reporterRunning = true;
  now = new Date("2026-08-20T10:14:52Z");
  cluster.report();
  return cluster;
}

const cr = (cluster: DemoCluster) => cluster.store.get(findResource("operator.openshift.io", "v1", "kubeapiservers")!, undefined, "cluster")!;

function familyShapes(parsed: ParsedPrometheus, prefix: string) {
  return Object.fromEntries(
    parsed.families
      .filter((f) => f.name.startsWith(prefix) && f.samples.length > 0)
      .map((f) => [f.name, { type: f.type, labels: [...new Set(f.samples.flatMap((s) => Object.keys(s.labels)))].sort() }]),
  );
}

describe("contract: fixtures and the simulator read the same through Faultline's parsers", () => {
  it("condition design: the KMSHealthReporter_<node> conditions", () => {
    const real = readOperatorStatus(json("kubeapiserver-operator-cr.json"));
    const sim = readOperatorStatus(cr(fixtureCluster("condition")));
    expect(sim.problems).toEqual([]);
    const reports = (view: typeof real) =>
      view.reporterConditions.map((c) => ({
        node: c.nodeName,
        status: c.condition.status,
        reason: c.condition.reason,
        format: c.parsed.format,
        reports: c.parsed.reports,
      }));
    expect(reports(sim)).toEqual(reports(real));
    // The simulator, like the shipped operator, has no aggregator: no KMSPluginsDegraded.
    const otherTypes = (view: typeof real) => view.conditions.map((c) => c.type).filter((t) => !t.startsWith("KMS"));
    for (const type of otherTypes(sim)) expect(otherTypes(real)).toContain(type);
  });

  it("typed design: status.encryptionStatus.healthReports", () => {
    const real = readOperatorStatus(json("kubeapiserver-operator-cr-typed-healthreports.json"));
    const sim = readOperatorStatus(cr(fixtureCluster("typed")));
    const strip = (r: (typeof real.typedReports)[number]) => ({ ...r, remoteKeyID: undefined });
    // The fixture's unhealthy entry lacks remoteKeyID (library-go's bug, rejected by the CRD); the simulator always sends it.
    expect(sim.typedReports.map(strip)).toEqual(real.typedReports.map(strip));
    expect(sim.typedReports.every((r) => r.remoteKeyID)).toBe(true);
  });

  it("the ClusterOperator", () => {
    const cluster = new DemoCluster({ nodes: 3 });
    const sim = readClusterOperator(cluster.store.get(findResource("config.openshift.io", "v1", "clusteroperators")!, undefined, "kube-apiserver"));
    const real = readClusterOperator(json("clusteroperator-kube-apiserver.json"));
    expect(sim.problems).toEqual([]);
    expect(sim.name).toBe(real.name);
    for (const type of ["Available", "Progressing", "Degraded", "Upgradeable"]) expect(real.conditions.map((c) => c.type)).toContain(type);
    expect(sim.conditions.map((c) => c.type).sort()).toEqual(["Available", "Degraded", "Progressing", "Upgradeable"]);
  });

  it("/healthz/kms-providers and /readyz?verbose of master-1", () => {
    const cluster = fixtureCluster("condition");
    const m1 = cluster.model.nodes[1];
    const simProviders = renderKmsProviders(cluster.model, m1, cluster.tick);
    const realBody = body("kas-healthz-kms-providers-master-1.txt").split("\n")[0];
    expect(parseKmsProvidersHealth(simProviders.status, simProviders.body)).toEqual(parseKmsProvidersHealth(500, realBody));
    const healthy = renderKmsProviders(cluster.model, cluster.model.nodes[0], cluster.tick);
    expect(parseKmsProvidersHealth(healthy.status, healthy.body)).toEqual(parseKmsProvidersHealth(200, "ok"));
    const simReady = parseVerboseHealth(renderReadyz(cluster.model, m1, cluster.tick, true, "readyz").body);
    const realReady = parseVerboseHealth(body("kas-readyz-verbose-master-1.txt"));
    expect(simReady).toEqual(realReady);
  });

  it("OpenBao health for every status code OpenBao uses, and the Transit key read", () => {
    const cluster = new DemoCluster({ nodes: 1 });
    const now = cluster.now();
    for (const [state, file] of [
      ["active", "openbao-health-active-200.json"],
      ["standby", "openbao-health-standby-429.json"],
      ["sealed", "openbao-health-sealed-503.json"],
      ["uninitialized", "openbao-health-uninitialized-501.json"],
    ] as const) {
      cluster.model.openbao.state = state;
      const sim = renderOpenBaoHealth(cluster.model, now);
      if (sim === "unreachable") throw new Error("unreachable");
      const status = Number(/-(\d{3})\.json$/.exec(file)![1]);
      const a = parseOpenBaoHealth(sim.status, sim.body);
      const b = parseOpenBaoHealth(status, json(file));
      expect(a.problem, state).toBeUndefined();
      expect({ state: a.state, httpStatus: a.httpStatus, sealed: a.sealed, standby: a.standby, initialized: a.initialized }).toEqual({
        state: b.state,
        httpStatus: b.httpStatus,
        sealed: b.sealed,
        standby: b.standby,
        initialized: b.initialized,
      });
    }
    const simKey = parseTransitKey(renderTransitKey(cluster.model, now).body);
    const realKey = parseTransitKey(json("openbao-transit-key-read.json").body ?? json("openbao-transit-key-read.json"));
    expect(simKey).not.toHaveProperty("kind", "problem");
    expect(Object.keys(simKey).sort()).toEqual(Object.keys(realKey).sort());
    expect((simKey as { problems: string[] }).problems).toEqual([]);
  });

  it("kube-apiserver and KMS plugin metrics: same families, types and labels", async () => {
    const cluster = fixtureCluster("condition");
    const sim = parsePrometheusText(await renderApiserverMetrics(cluster.model, cluster.model.nodes[1], cluster.now()));
    const real = parsePrometheusText(text("kms-metrics.txt"));
    expect(sim.errors).toEqual([]);
    const simShapes = familyShapes(sim, "apiserver_");
    const realShapes = familyShapes(real, "apiserver_");
    expect(Object.keys(simShapes).length).toBeGreaterThanOrEqual(5);
    for (const [name, shape] of Object.entries(simShapes)) expect(shape, name).toEqual(realShapes[name]);

    const simPlugin = parsePrometheusText((await renderPluginMetrics(cluster.model, cluster.model.nodes[0], "2"))!);
    const realPlugin = parsePrometheusText(text("bao-kms-provider-metrics.txt"));
    const pluginShapes = familyShapes(simPlugin, "openbao_kms_");
    const realPluginShapes = familyShapes(realPlugin, "openbao_kms_");
    expect(Object.keys(pluginShapes).length).toBeGreaterThanOrEqual(8);
    for (const [name, shape] of Object.entries(pluginShapes)) if (realPluginShapes[name]) expect(shape, name).toEqual(realPluginShapes[name]);
  });

  it("watch streams: initial events, bookmarks, the 410 ERROR, and a DaemonSet losing and regaining pods", async () => {
    const cluster = new DemoCluster({ nodes: 3 });
    const server = new DemoServer({ cluster, bookmarkIntervalMs: 100 });
    const endpoints = await server.start();
    const read = async (path: string, ms: number) => {
      let out = "";
      const stream = openStream(endpoints, path, endpoints.readToken, (line) => (out += `${line}\n`));
      const timer = setTimeout(() => stream.abort(), ms);
      await stream.ended;
      clearTimeout(timer);
      return out;
    };
    try {
      const initial = parseWatchStream(
        await read(
          "/apis/operator.openshift.io/v1/kubeapiservers?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
          350,
        ),
      );
      const real = parseWatchStream(text("watch-events.ndjson"));
      expect(initial.problems).toEqual([]);
      expect(initial.events.slice(0, 2).map((e) => [e.type, e.initialEventsEnd ?? false])).toEqual(
        real.events.slice(0, 2).map((e) => [e.type, e.initialEventsEnd ?? false]),
      );

      const expired = parseWatchStream(await read("/apis/operator.openshift.io/v1/kubeapiservers?watch=1&resourceVersion=5", 300));
      const realExpired = parseWatchStream(text("watch-reconnect-410.ndjson"));
      const errorOf = (s: typeof expired) => s.events.filter((e) => e.type === "ERROR").map((e) => ({ code: e.status?.code, reason: e.status?.reason }));
      expect(errorOf(expired)).toEqual(errorOf(realExpired));
      expect(parseKubeStatus(json("status-410.json"))).toMatchObject({ code: 410, reason: "Expired" });

      const rv = cluster.store.resourceVersion;
      const streaming = read(`/apis/apps/v1/namespaces/cloudtaser-system/daemonsets?watch=1&resourceVersion=${rv}`, 500);
      await new Promise((r) => setTimeout(r, 100));
      cluster.model.stack.ebpfReady = "none";
      cluster.sync();
      cluster.model.stack.ebpfReady = "all";
      cluster.sync();
      const ds = parseWatchStream(await streaming);
      const realDs = parseWatchStream(text("watch-events-daemonset.ndjson"));
      const unavailable = (s: typeof ds) => s.events.filter((e) => e.type === "MODIFIED").map((e) => readDaemonSet(e.object).unavailable > 0);
      expect(unavailable(ds)).toEqual([true, false]);
      expect(unavailable(realDs).slice(0, 1)).toEqual([false]);
      expect(readDaemonSet(realDs.events[0].object).unavailable).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });

  it("the protection stack's workloads", () => {
    const cluster = new DemoCluster({ nodes: 3 });
    const get = (group: string, plural: string, ns: string | undefined, name: string) =>
      cluster.store.get(findResource(group, "v1", plural)!, ns, name) as JsonObject;
    const simDeploy = readDeployment(get("apps", "deployments", "cloudtaser-system", "cloudtaser-operator"));
    const realDeploy = readDeployment(json("deployment-cloudtaser-operator.json"));
    expect(simDeploy.problems).toEqual([]);
    expect(Object.keys(simDeploy).sort()).toEqual(Object.keys(realDeploy).sort());
    expect(simDeploy.done).toBe(true);
    const simBridge = readDeployment(get("apps", "deployments", "cloudtaser-system", "cloudtaser-bridge"));
    expect(simBridge).toMatchObject({ problems: [], available: 1, replicas: 1 });
    expect(Object.keys(simBridge).sort()).toEqual(Object.keys(realDeploy).sort());
    // The injected workload reads as kubelet's statuses do (lib/sources/kube/read-pods.test.ts): the wrapper is PID 1.
    const pod = () => readInjectedPod(get("", "pods", "payments", "payments-api-7d9f8c6b5-x2k4p"));
    expect(pod()).toMatchObject({ problems: [], wrapped: [{ name: "api", reported: true, restartCount: 0, running: true }] });
    cluster.model.stack.wrapper = { state: "crash-loop", restarts: 9, lastExit: { exitCode: 1, reason: "Error", message: "wrapper exited during start-up" } };
    cluster.sync();
    expect(pod().wrapped[0]).toMatchObject({ restartCount: 9, waiting: { reason: "CrashLoopBackOff" }, lastTerminated: { exitCode: 1, reason: "Error" } });
    const simDs = readDaemonSet(get("apps", "daemonsets", "cloudtaser-system", "cloudtaser-ebpf"));
    expect(simDs.problems).toEqual([]);
    expect(Object.keys(simDs).sort()).toEqual(Object.keys(readDaemonSet(json("daemonset-cloudtaser-ebpf.json"))).sort());
    const simHook = readWebhookConfiguration(get("admissionregistration.k8s.io", "mutatingwebhookconfigurations", undefined, "cloudtaser-operator-webhook"));
    const realHook = readWebhookConfiguration(json("mutatingwebhookconfiguration-cloudtaser.json"));
    // The fixture's chart sets failurePolicy Fail; the simulator starts from the chart default, Ignore.
    const keys = (w: object) =>
      Object.keys(w)
        .filter((k) => k !== "caNotAfter")
        .sort();
    expect(keys(simHook.webhooks[0])).toEqual(keys(realHook.webhooks[0]));
    expect(simHook.webhooks[0]).toMatchObject({ failurePolicy: "Ignore", caBundlePresent: true, service: { namespace: "cloudtaser-system" } });
    expect(simHook.webhooks[0].caNotAfter).toBe("2036-12-31T00:00:00.000Z");
    cluster.model.stack.webhookCaExpired = true;
    cluster.sync();
    expect(
      readWebhookConfiguration(get("admissionregistration.k8s.io", "mutatingwebhookconfigurations", undefined, "cloudtaser-operator-webhook")).webhooks[0]
        .caNotAfter,
    ).toBe("2026-03-01T00:00:00.000Z");
  });
});
