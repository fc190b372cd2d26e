import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readClusterOperator } from "./read-cluster-operator";
import { describeReadProblem } from "./read-problem";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures", name), "utf8");
const clusterOperator = () => JSON.parse(fixture("clusteroperator-kube-apiserver.json"));

describe("readClusterOperator on kube-apiserver", () => {
  const view = readClusterOperator(clusterOperator());

  it("shows Degraded with the union reason and one source line per bad condition", () => {
    expect(view.name).toBe("kube-apiserver");
    expect(view.problems.map(describeReadProblem)).toEqual([]);
    expect(view.degraded).toMatchObject({ status: "True", reason: "KMSPlugins_KMSPluginsUnhealthy", reasons: ["KMSPlugins_KMSPluginsUnhealthy"] });
    expect(view.degraded?.sources).toEqual([
      { type: "KMSPluginsDegraded", message: "master-1: KMS plugin keyID=2 (kekID=kek-7c41e0) unhealthy: credential lacks decrypt permission" },
      { type: "KMSPluginsDegraded", message: "master-2: health report stale: lastChecked 2026-08-20T10:11:37Z is older than 2m0s" },
    ]);
  });

  it("shows Available, Progressing and Upgradeable, and the NoData evaluation condition", () => {
    expect(view.available).toMatchObject({ status: "True", reason: "AsExpected" });
    expect(view.available?.sources).toEqual([{ type: "StaticPodsAvailable", message: "3 nodes are active; 3 nodes are at revision 17" }]);
    expect(view.progressing).toMatchObject({ status: "True", reason: "EncryptionMigrationController_Migrating" });
    expect(view.upgradeable?.status).toBe("True");
    expect(view.conditions.find((c) => c.type === "EvaluationConditionsDetected")).toEqual({
      type: "EvaluationConditionsDetected",
      status: "Unknown",
      lastTransitionTime: "2026-08-12T07:22:18Z",
      reason: "NoData",
    });
  });

  it("reads versions and all twelve related objects", () => {
    expect(view.versions.find((v) => v.name === "kube-apiserver")?.version).toBe("1.35.3");
    expect(view.versions.find((v) => v.name === "operator")?.version).toBe("4.22.0-0.nightly-2026-08-11-201155");
    expect(view.relatedObjects).toHaveLength(12);
    expect(view.relatedObjects).toContainEqual({ group: "config.openshift.io", resource: "nodes", name: "cluster" });
    expect(view.relatedObjects).toContainEqual({
      group: "controlplane.operator.openshift.io",
      resource: "podnetworkconnectivitychecks",
      namespace: "openshift-kube-apiserver",
      name: "",
    });
  });
});

describe("readClusterOperator on bad input", () => {
  it("reports a body that is not an object", () => {
    expect({ ...readClusterOperator([]), problems: readClusterOperator([]).problems.map(describeReadProblem) }).toEqual({
      conditions: [],
      versions: [],
      relatedObjects: [],
      problems: ["ClusterOperator is an array, not an object"],
    });
  });

  it("skips and names a bad related object, a bad version and a bad condition", () => {
    const co = clusterOperator();
    delete co.status.relatedObjects[3].resource;
    co.status.versions[0].version = 4.22;
    co.status.conditions[0].status = true;
    const view = readClusterOperator(co);
    expect(view.degraded).toBeUndefined();
    expect(view.relatedObjects).toHaveLength(11);
    expect(view.problems.map(describeReadProblem)).toEqual([
      'status.conditions[0] (type "Degraded") skipped: status is a boolean, not True, False or Unknown',
      "status.versions[0] skipped: version: Invalid input: expected string, received number",
      "status.relatedObjects[3] skipped: resource is missing",
    ]);
  });
});
