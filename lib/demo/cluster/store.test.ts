import { describe, expect, it } from "vitest";
import { parseKubeStatus } from "@/test/parse-kube-status";
import { readFileSync } from "node:fs";
import { findResource } from "./resources";
import { ObjectStore, StoreError } from "./store";

const CR = findResource("operator.openshift.io", "v1", "kubeapiservers")!;
const fixture = (name: string) => JSON.parse(readFileSync(`test/fixtures/${name}`, "utf8"));
const condition = (node: string, message: string) => ({
  apiVersion: "operator.openshift.io/v1",
  kind: "KubeAPIServer",
  metadata: { name: "cluster" },
  status: { conditions: [{ type: `KMSHealthReporter_${node}`, status: "True", reason: "AsExpected", message, lastTransitionTime: "2026-08-20T10:00:00Z" }] },
});
const store = () => new ObjectStore(() => new Date("2026-08-20T10:15:00Z"), 5);
const caught = (fn: () => unknown): StoreError => {
  try {
    fn();
  } catch (error) {
    return error as StoreError;
  }
  throw new Error("no error");
};

describe("server-side apply", () => {
  it("lets each reporter own its own condition and records managedFields like the API server", () => {
    const s = store();
    s.apply(CR, undefined, "cluster", condition("master-0", "[]"), { manager: "reporter-0", force: false, subresource: "status" });
    const after = s.apply(CR, undefined, "cluster", condition("master-1", "[]"), { manager: "reporter-1", force: false, subresource: "status" });
    const types = (after.status as { conditions: { type: string }[] }).conditions.map((c) => c.type);
    expect(types).toEqual(["KMSHealthReporter_master-0", "KMSHealthReporter_master-1"]);
    const managed = (after.metadata as { managedFields: { manager: string; subresource: string; fieldsV1: Record<string, unknown> }[] }).managedFields;
    expect(managed.map((m) => m.manager)).toEqual(["reporter-0", "reporter-1"]);
    expect(managed[1]).toMatchObject({
      subresource: "status",
      fieldsV1: { "f:status": { "f:conditions": { 'k:{"type":"KMSHealthReporter_master-1"}': { ".": {}, "f:message": {} } } } },
    });
  });

  it("refuses to take another manager's field without force, with a Status shaped like the real 409", () => {
    const s = store();
    s.apply(CR, undefined, "cluster", condition("master-1", "[]"), { manager: "kms-health-reporter-a", force: false, subresource: "status" });
    const error = caught(() =>
      s.apply(CR, undefined, "cluster", condition("master-1", "[{}]"), { manager: "someone-else", force: false, subresource: "status" }),
    );
    expect(error.code).toBe(409);
    const ours = parseKubeStatus({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: error.message,
      reason: error.reason,
      details: error.details,
      code: error.code,
    });
    const real = parseKubeStatus(fixture("status-409-apply-conflict.json"));
    expect(ours).toMatchObject({ code: 409, reason: "Conflict" });
    expect(real).toMatchObject({ code: 409, reason: "Conflict" });
    const field = (v: unknown) => (v as { causes: { reason: string; field: string }[] }).causes[0];
    expect(field(ours)).toEqual(
      expect.objectContaining({ reason: "FieldManagerConflict", field: '.status.conditions[type="KMSHealthReporter_master-1"].message' }),
    );
    expect(field(real).field).toBe(field(ours).field);
    // With force the new manager takes the field.
    const forced = s.apply(CR, undefined, "cluster", condition("master-1", "[{}]"), { manager: "someone-else", force: true, subresource: "status" });
    expect((forced.status as { conditions: { message: string }[] }).conditions[0].message).toBe("[{}]");
  });

  it("removes what a manager stops applying", () => {
    const s = store();
    const body = {
      ...condition("master-0", "[]"),
      status: {
        encryptionStatus: {
          healthReports: [
            { nodeName: "master-0", keyID: "1", status: "Healthy", lastCheckedTime: "2026-08-20T10:14:00Z", remoteKeyID: "kek-a" },
            { nodeName: "master-0", keyID: "2", status: "Healthy", lastCheckedTime: "2026-08-20T10:14:00Z", remoteKeyID: "kek-b" },
          ],
        },
      },
    };
    s.apply(CR, undefined, "cluster", body, { manager: "r0", force: true, subresource: "status" });
    const one = { ...body, status: { encryptionStatus: { healthReports: [body.status.encryptionStatus.healthReports[1]] } } };
    const after = s.apply(CR, undefined, "cluster", one, { manager: "r0", force: true, subresource: "status" });
    const reports = (after.status as { encryptionStatus: { healthReports: { keyID: string }[] } }).encryptionStatus.healthReports;
    expect(reports.map((r) => r.keyID)).toEqual(["2"]);
  });

  it("rejects a typed health report without remoteKeyID with the real 422", () => {
    const s = store();
    const body = {
      ...condition("master-1", "[]"),
      status: { encryptionStatus: { healthReports: [{ nodeName: "master-1", keyID: "2", status: "Unhealthy", lastCheckedTime: "2026-08-20T10:14:52Z" }] } },
    };
    const error = caught(() => s.apply(CR, undefined, "cluster", body, { manager: "r1", force: true, subresource: "status" }));
    expect(error.code).toBe(422);
    expect(error.message).toBe(
      'KubeAPIServer.operator.openshift.io "cluster" is invalid: status.encryptionStatus.healthReports[0].remoteKeyID: Required value',
    );
    expect(fixture("status-422-healthreport-missing-remotekeyid.json").message).toMatch(
      /^KubeAPIServer\.operator\.openshift\.io "cluster" is invalid: status\.encryptionStatus\.healthReports\[\d+\]\.remoteKeyID: Required value$/,
    );
  });
});

describe("resource versions and history", () => {
  it("answers a watch from a version older than its history with 410 Expired", () => {
    const s = store();
    for (let i = 0; i < 8; i++)
      s.apply(CR, undefined, "cluster", condition("master-0", `[${"{}".repeat(0)}]${i}`), { manager: "r", force: true, subresource: "status" });
    const error = caught(() => s.eventsSince(CR, 1000));
    expect(error).toMatchObject({ code: 410, reason: "Expired" });
    expect(error.message).toMatch(/^too old resource version: 1000 \(\d+\)$/);
    expect(s.eventsSince(CR, Number(s.resourceVersion) - 2)).toHaveLength(2);
  });

  it("keeps no event older than five minutes, as etcd compacts: a big CR rewritten every round cannot pile up", () => {
    let now = Date.parse("2026-08-20T10:00:00Z");
    const s = new ObjectStore(() => new Date(now));
    const first = Number(s.resourceVersion);
    // A round every 30 s for an hour: 120 writes, far under the count bound of 5,000.
    for (let i = 0; i < 120; i++) {
      s.apply(CR, undefined, "cluster", condition("master-0", `[]${i}`), { manager: "r", force: true, subresource: "status" });
      now += 30_000;
    }
    expect(caught(() => s.eventsSince(CR, first))).toMatchObject({ code: 410, reason: "Expired" });
    // The last 5 minutes (11 rounds, both ends) resume; one round more is expired.
    const latest = Number(s.resourceVersion);
    expect(s.eventsSince(CR, latest - 11)).toHaveLength(11);
    expect(caught(() => s.eventsSince(CR, latest - 12))).toMatchObject({ code: 410 });
  });

  it("merge-patches and bumps generation only when the spec changes", () => {
    const s = store();
    const first = s.put(CR, { metadata: { name: "cluster" }, spec: { logLevel: "Normal" }, status: {} });
    const patched = s.mergePatch(CR, undefined, "cluster", { spec: { logLevel: "Debug" } }, "kubectl");
    expect((patched.metadata as { generation: number }).generation).toBe((first.metadata as { generation: number }).generation + 1);
    const status = s.mergePatch(CR, undefined, "cluster", { status: { readyReplicas: 3 } });
    expect((status.metadata as { generation: number }).generation).toBe((patched.metadata as { generation: number }).generation);
  });
});
