import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readOperatorStatus } from "./read-operator-status";
import { describeReadProblem } from "./read-problem";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures", name), "utf8");
const conditionCr = () => JSON.parse(fixture("kubeapiserver-operator-cr.json"));
const typedCr = () => JSON.parse(fixture("kubeapiserver-operator-cr-typed-healthreports.json"));

describe("readOperatorStatus on the condition-design CR", () => {
  const view = readOperatorStatus(conditionCr());

  it("keeps every condition and finds nothing wrong", () => {
    expect(view.name).toBe("cluster");
    expect(view.resourceVersion).toBe("4471203");
    expect(view.conditions).toHaveLength(18);
    expect(view.problems).toEqual([]);
    expect(view.conditions.find((c) => c.type === "EncryptionMigrationControllerProgressing")).toMatchObject({
      status: "True",
      reason: "Migrating",
      message: "migrating resources to a new write key: [core/secrets core/configmaps]",
    });
  });

  it("finds one reporter condition per node, hardcoded True/AsExpected, health in the message", () => {
    expect(view.reporterConditions.map((r) => r.nodeName)).toEqual(["master-0", "master-1", "master-2"]);
    for (const r of view.reporterConditions) expect(r.condition).toMatchObject({ status: "True", reason: "AsExpected" });
    const master1 = view.reporterConditions.find((r) => r.nodeName === "master-1");
    expect(master1?.parsed.reports[0]).toEqual({
      keyID: "2",
      kekID: "kek-7c41e0",
      status: "unhealthy",
      lastChecked: "2026-08-20T10:14:52Z",
      detail: "credential lacks decrypt permission",
    });
    const master2 = view.reporterConditions.find((r) => r.nodeName === "master-2");
    expect(master2?.parsed.reports.map((r) => r.lastChecked)).toEqual(["2026-08-20T10:11:37Z", "2026-08-20T10:11:37Z"]);
  });

  it("carries the placeholder KMSPluginsDegraded rollup as an ordinary condition", () => {
    const rollup = view.conditions.find((c) => c.type === "KMSPluginsDegraded");
    expect(rollup?.status).toBe("True");
    expect(rollup?.message?.split("\n")).toHaveLength(2);
    expect(view.typedReports).toEqual([]);
    expect(view.preflight).toBeUndefined();
  });
});

describe("readOperatorStatus on the typed healthReports CR", () => {
  const view = readOperatorStatus(typedCr());

  it("reads six typed reports, the unhealthy one without remoteKeyID", () => {
    expect(view.problems).toEqual([]);
    expect(view.reporterConditions).toEqual([]);
    expect(view.typedReports).toHaveLength(6);
    expect(view.typedReports.find((r) => r.nodeName === "master-1" && r.keyID === "2")).toEqual({
      nodeName: "master-1",
      keyID: "2",
      status: "Unhealthy",
      lastCheckedTime: "2026-08-20T10:14:52Z",
      detail: "credential lacks decrypt permission",
    });
    expect(view.typedReports.filter((r) => r.nodeName === "master-2").map((r) => r.lastCheckedTime)).toEqual(["2026-08-20T10:11:37Z", "2026-08-20T10:11:37Z"]);
  });

  it("reads the preflight block", () => {
    expect(view.preflight).toEqual({
      observedConfigHash: "Qm3xZ9a_",
      result: { status: "Succeeded", configHash: "Qm3xZ9a_", remoteKeyID: "kek-7c41e0" },
    });
  });
});

describe("readOperatorStatus on bad input: skips, says why, never throws", () => {
  it("reports a CR that is not an object", () => {
    expect(readOperatorStatus("cluster").problems.map(describeReadProblem)).toEqual(["operator CR is a string, not an object"]);
    expect(readOperatorStatus(null).problems.map(describeReadProblem)).toEqual(["operator CR is null, not an object"]);
  });

  it("keeps the good conditions and names each skipped one", () => {
    const cr = conditionCr();
    cr.status.conditions[0].status = "Maybe";
    delete cr.status.conditions[1].lastTransitionTime;
    cr.status.conditions[2].lastTransitionTime = "last Tuesday";
    cr.status.conditions.push({ ...cr.status.conditions[3] });
    cr.status.conditions.push("Degraded");
    const view = readOperatorStatus(cr);
    expect(view.conditions).toHaveLength(15);
    expect(view.problems.map(describeReadProblem)).toEqual([
      'status.conditions[0] (type "NodeControllerDegraded") skipped: status "Maybe" is not True, False or Unknown',
      'status.conditions[1] (type "StaticPodsAvailable") skipped: lastTransitionTime is missing',
      'status.conditions[2] (type "NodeInstallerProgressing") skipped: lastTransitionTime "last Tuesday" is not an RFC 3339 timestamp',
      'status.conditions[18] (type "NodeInstallerDegraded") skipped: type repeats status.conditions[3]',
      "status.conditions[19] skipped: Invalid input: expected object, received string",
    ]);
  });

  it("keeps an unparseable reporter message visible, with the reason", () => {
    const cr = conditionCr();
    const master2 = cr.status.conditions.find((c: { type: string }) => c.type === "KMSHealthReporter_master-2");
    master2.message = master2.message.slice(0, 40);
    const view = readOperatorStatus(cr);
    const reporter = view.reporterConditions.find((r) => r.nodeName === "master-2");
    expect(reporter?.parsed.format).toBe("unparseable");
    expect(view.problems.map(describeReadProblem)).toEqual([
      "condition KMSHealthReporter_master-2: message is unparseable: invalid JSON: input ends early after 40 characters (truncated?)",
    ]);
    expect(view.problems[0]).toMatchObject({ kind: "message-unparseable", subject: "KMSHealthReporter_master-2", fields: { node: "master-2" } });
  });

  it("names bad and duplicate typed reports and a bad preflight", () => {
    const cr = typedCr();
    const reports = cr.status.encryptionStatus.healthReports;
    reports[0].status = "Degraded";
    delete reports[1].nodeName;
    reports.push({ ...reports[2] });
    cr.status.encryptionStatus.preflight.result.status = "Pending";
    const view = readOperatorStatus(cr);
    expect(view.typedReports).toHaveLength(4);
    expect(view.preflight).toBeUndefined();
    expect(view.problems.map(describeReadProblem)).toEqual([
      'status.encryptionStatus.healthReports[0] skipped: status "Degraded" is not Healthy, Unhealthy or Error',
      "status.encryptionStatus.healthReports[1] skipped: nodeName is missing",
      'status.encryptionStatus.healthReports[6] skipped: nodeName "master-1" keyID "2" repeats status.encryptionStatus.healthReports[2]',
      'status.encryptionStatus.preflight skipped: result.status "Pending" is not Succeeded or Failed',
    ]);
    expect(view.problems.map((p) => [p.kind, p.subject])).toEqual([
      ["entry-skipped", "status.encryptionStatus.healthReports[0]"],
      ["entry-skipped", "status.encryptionStatus.healthReports[1]"],
      ["entry-repeats", "status.encryptionStatus.healthReports[6]"],
      ["entry-skipped", "status.encryptionStatus.preflight"],
    ]);
    expect(view.problems[2].fields).toMatchObject({ nodeName: "master-1", keyID: "2", first: 2 });
  });

  it("reports lists that are not lists", () => {
    const view = readOperatorStatus({ metadata: { name: "cluster" }, status: { conditions: {}, encryptionStatus: { healthReports: "none" } } });
    expect(view.problems.map(describeReadProblem)).toEqual([
      "status.conditions is an object, not an array",
      "status.encryptionStatus.healthReports is a string, not an array",
    ]);
  });
});
