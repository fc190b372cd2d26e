import { describe, expect, it } from "vitest";
import type { Sources } from "@/lib/sources/sources";
import { readSources } from "@/lib/sources/readings";
import { sampleKmsMetrics, setSampleValue } from "@/test/sample-metrics";
import { composeClusterHealth } from "./cluster-health";

// One matrix per API-server CR: the kube-apiserver's and each aggregated API server's are judged
// apart, so a healthy kube-apiserver never hides an unhealthy openshift-apiserver.

const now = new Date("2026-11-22T10:00:00Z");
const checked = "2026-11-22T09:59:50Z";
const report = (node: string, status: "healthy" | "error", detail?: string) => ({
  type: `KMSHealthReporter_${node}`,
  status: "True",
  reason: "AsExpected",
  lastTransitionTime: "2026-11-01T00:00:00Z",
  message: JSON.stringify([{ keyID: "1", ...(status === "healthy" ? { kekID: "kek-1" } : {}), status, lastChecked: checked, ...(detail ? { detail } : {}) }]),
});
const cr = (kind: string, conditions: unknown[]) => ({ apiVersion: "operator.openshift.io/v1", kind, metadata: { name: "cluster" }, status: { conditions } });
const up = <T>(name: string, value: T) => ({ name, up: true, lastSuccess: checked, value });
const nodes = ["master-0", "master-1", "master-2"].map((name) => ({
  metadata: { name, labels: { "node-role.kubernetes.io/master": "" }, creationTimestamp: "2026-11-01T00:00:00Z" },
}));
const healthy = ["master-0", "master-1", "master-2"].map((n) => report(n, "healthy"));

function compose(extra: Partial<Sources>) {
  const sources: Sources = {
    kubeapiserver: up("kubeapiserver", cr("KubeAPIServer", healthy)),
    nodes: up("nodes", nodes),
    clusterOperator: up("clusterOperator", { status: { conditions: [{ type: "Degraded", status: "False", reason: "AsExpected" }] } }),
    ...extra,
  };
  return composeClusterHealth({ name: "prod", simulated: false, intervalSeconds: 30, readings: readSources(sources), now });
}

describe("one KMS matrix per API-server CR", () => {
  it("degrades the rollup for an unhealthy openshift-apiserver plugin even while the kube-apiserver is healthy", () => {
    const h = compose({
      openshiftapiserver: up(
        "openshiftapiserver",
        cr("OpenShiftAPIServer", [
          report("master-0", "healthy"),
          report("master-1", "error", "dial unix /var/run/kmsplugin/kms-1.sock: connect: connection refused"),
        ]),
      ),
      authentication: up("authentication", cr("Authentication", [report("master-0", "healthy")])),
    });
    expect(h.matrix?.rollup.degraded).toBe(false);
    expect(h.serverMatrices.map((m) => [m.server, m.matrix.rollup.degraded])).toEqual([
      ["openshift-apiserver", true],
      ["oauth-apiserver", false],
    ]);
    expect(h.summary).toMatchObject({ state: "degraded", line: expect.stringMatching(/^openshift-apiserver: master-1: keyID 1/) });
    const critical = h.signals.filter((s) => s.state === "critical");
    expect(critical.map((s) => `${s.id} ${s.subject}`)).toEqual(["kms.plugin.unhealthy openshift-apiserver master-1/1"]);
    // The kube-apiserver ClusterOperator speaks for the kube-apiserver only: no disagreement to report.
    expect(h.disagreement).toBeUndefined();
  });

  it("does not expect every control-plane node to report for an aggregated server (Deployment replicas), and leaves out a CR with no reports", () => {
    const h = compose({
      openshiftapiserver: up("openshiftapiserver", cr("OpenShiftAPIServer", [report("master-0", "healthy")])),
      authentication: up("authentication", cr("Authentication", [])),
    });
    expect(h.serverMatrices.map((m) => m.server)).toEqual(["openshift-apiserver"]);
    expect(h.serverMatrices[0].matrix.rollup.degraded).toBe(false);
    expect(h.summary).toMatchObject({ state: "ok", line: "3 nodes, 4 plugin reports healthy and fresh" });
  });

  it("treats a CR the cluster does not have (null) as not applicable", () => {
    const h = compose({ openshiftapiserver: up("openshiftapiserver", null), authentication: up("authentication", null) });
    expect(h.serverMatrices).toEqual([]);
    expect(h.summary.state).toBe("ok");
  });
});

describe("KMS metrics in a cluster's health", () => {
  it("raises the metric signals and keeps the series for the sparklines", () => {
    const metrics = setSampleValue(sampleKmsMetrics(now), "tokenTtl", { node: "master-1", key_id: "1" }, 90);
    const h = compose({ metrics: up("metrics", metrics) });
    expect(h.metrics?.metrics.tokenTtl.series.length).toBeGreaterThan(0);
    expect(h.metricsNote).toBeUndefined();
    expect(h.signals.filter((s) => s.id === "kms.auth.ttl-low" && s.state !== "ok").map((s) => [s.subject, s.state])).toEqual([["master-1/1", "critical"]]);
  });

  it("says why there are no metrics", () => {
    expect(compose({}).metricsNote).toMatch(/no Prometheus configured/);
    const sources = { kubeapiserver: up("kubeapiserver", cr("KubeAPIServer", healthy)), nodes: up("nodes", nodes) };
    const h = composeClusterHealth({
      name: "demo",
      simulated: true,
      intervalSeconds: 30,
      readings: readSources(sources),
      now,
      prometheusNote: "prometheus is not installed",
    });
    expect(h.metricsNote).toBe("prometheus is not installed");
  });
});
