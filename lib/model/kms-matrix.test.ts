import { describe, expect, it } from "vitest";
import { conditionCr, masters, matrixOf, NOW, reporter, typedCr } from "@/test/kms-matrix-fixtures";
import { buildKmsMatrix, type KmsNode } from "./kms-matrix";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";

const STALE_REASON = "master-2: report stale: lastChecked 2026-08-20T10:11:37Z is 203s old (threshold 120s)";

describe("buildKmsMatrix on the condition-design CR at the reference time", () => {
  const matrix = matrixOf(conditionCr());

  it("reads master-1 keyID 2 as unhealthy with the plugin's words, from the message", () => {
    expect(matrix.cells.find((c) => c.node === "master-1" && c.keyID === "2")).toEqual({
      node: "master-1",
      keyID: "2",
      kekID: "kek-7c41e0",
      status: "unhealthy",
      reported: "unhealthy",
      lastChecked: "2026-08-20T10:14:52Z",
      ageSeconds: 8,
      detail: "credential lacks decrypt permission",
      stale: false,
      future: false,
      orphaned: false,
      source: "kubeapiservers",
      design: "condition",
    });
  });

  it("turns master-2's 203 s old reports into unknown, keeping what was reported", () => {
    const master2 = matrix.cells.filter((c) => c.node === "master-2");
    expect(master2.map((c) => [c.keyID, c.status, c.reported, c.ageSeconds, c.stale])).toEqual([
      ["2", "unknown", "healthy", 203, true],
      ["1", "unknown", "healthy", 203, true],
    ]);
  });

  it("orders cells by node, then keyID from newest to oldest, and gives one row per control-plane node", () => {
    expect(matrix.cells.map((c) => `${c.node}/${c.keyID}:${c.status}`)).toEqual([
      "master-0/2:healthy",
      "master-0/1:healthy",
      "master-1/2:unhealthy",
      "master-1/1:healthy",
      "master-2/2:unknown",
      "master-2/1:unknown",
    ]);
    expect(matrix.rows.map((r) => [r.node, r.present, r.controlPlane, r.state, r.lastChecked])).toEqual([
      ["master-0", true, true, "reporting", "2026-08-20T10:14:41Z"],
      ["master-1", true, true, "reporting", "2026-08-20T10:14:52Z"],
      ["master-2", true, true, "stale", "2026-08-20T10:11:37Z"],
    ]);
  });

  it("is degraded with exactly the unhealthy plugin and the stale node as reasons", () => {
    expect(matrix.rollup).toEqual({
      degraded: true,
      reasons: ["master-1: keyID 2 (kekID kek-7c41e0) unhealthy: credential lacks decrypt permission", STALE_REASON],
    });
    expect(matrix.thresholdSeconds).toBe(120);
    expect(matrix.notes).toEqual([]);
    expect(matrix.unreadable).toEqual([]);
  });

  it("finds the nodes agreeing on one kekID per keyID, over fresh reports only, and a migration from keyID 1 to 2", () => {
    expect(matrix.agreement).toEqual([
      { keyID: "2", kekIDs: [{ kekID: "kek-7c41e0", nodes: ["master-0", "master-1"] }], agree: true },
      { keyID: "1", kekIDs: [{ kekID: "kek-3b9a22", nodes: ["master-0", "master-1"] }], agree: true },
    ]);
    expect(matrix.migration).toEqual({ inProgress: true, keyIDs: ["2", "1"] });
  });
});

describe("buildKmsMatrix on the typed healthReports CR at the reference time", () => {
  const matrix = matrixOf(typedCr());

  it("gives the same verdicts; the unhealthy report has no kekID because the prober sets remoteKeyID only when healthy", () => {
    const cell = matrix.cells.find((c) => c.node === "master-1" && c.keyID === "2");
    expect(cell).toMatchObject({ status: "unhealthy", detail: "credential lacks decrypt permission", design: "typed" });
    expect(cell?.kekID).toBeUndefined();
    expect(matrix.cells.filter((c) => c.stale).map((c) => `${c.node}/${c.keyID}:${c.ageSeconds}`)).toEqual(["master-2/2:203", "master-2/1:203"]);
    expect(matrix.rollup).toEqual({ degraded: true, reasons: ["master-1: keyID 2 unhealthy: credential lacks decrypt permission", STALE_REASON] });
  });

  it("agrees per keyID and sees the migration", () => {
    expect(matrix.agreement).toEqual([
      { keyID: "2", kekIDs: [{ kekID: "kek-7c41e0", nodes: ["master-0"] }], agree: true },
      { keyID: "1", kekIDs: [{ kekID: "kek-3b9a22", nodes: ["master-0", "master-1"] }], agree: true },
    ]);
    expect(matrix.migration).toEqual({ inProgress: true, keyIDs: ["2", "1"] });
  });
});

describe("buildKmsMatrix: nodes without reports (cold start)", () => {
  const withNode = (node: KmsNode) => matrixOf(conditionCr(), { nodes: [...masters(), node] });

  it("shows a new control-plane node as not yet observed until four intervals have passed", () => {
    const matrix = withNode({ name: "master-3", controlPlane: true, firstSeen: "2026-08-20T10:14:00Z" });
    expect(matrix.rows.find((r) => r.node === "master-3")).toEqual({
      node: "master-3",
      present: true,
      controlPlane: true,
      state: "not-yet-observed",
      firstSeen: "2026-08-20T10:14:00Z",
    });
    expect(matrix.rollup.reasons).toHaveLength(2);
  });

  it("turns it unknown, and the rollup degraded, after the threshold", () => {
    const matrix = withNode({ name: "master-3", controlPlane: true, firstSeen: "2026-08-20T10:12:00Z" });
    expect(matrix.rows.find((r) => r.node === "master-3")?.state).toBe("unknown");
    expect(matrix.rollup.reasons[2]).toBe("master-3: no KMS health report 180s after the node was first seen (threshold 120s)");
  });

  it("keeps waiting when firstSeen is unknown or unreadable, and ignores workers", () => {
    expect(withNode({ name: "master-3", controlPlane: true }).rows.find((r) => r.node === "master-3")?.state).toBe("not-yet-observed");
    const bad = withNode({ name: "master-3", controlPlane: true, firstSeen: "yesterday" });
    expect(bad.rows.find((r) => r.node === "master-3")?.state).toBe("not-yet-observed");
    expect(bad.notes).toEqual(['node master-3: firstSeen "yesterday" is not a timestamp']);
    expect(withNode({ name: "worker-0", controlPlane: false, firstSeen: "2026-08-01T00:00:00Z" }).rows.map((r) => r.node)).toEqual([
      "master-0",
      "master-1",
      "master-2",
    ]);
  });

  it("orders node names by their numbers, not as plain strings", () => {
    const nodes = ["master-10", "master-2", "Master-1", "master-1"].map((name) => ({ name, controlPlane: true }));
    expect(buildKmsMatrix({ now: NOW, intervalSeconds: 30, nodes, sources: [] }).rows.map((r) => r.node)).toEqual([
      "Master-1",
      "master-1",
      "master-2",
      "master-10",
    ]);
  });
});

describe("buildKmsMatrix: orphans and clock skew", () => {
  it("shows a report from a node that left the cluster but keeps it out of the rollup and the agreement", () => {
    const matrix = matrixOf(conditionCr(), { nodes: masters().slice(0, 2) });
    expect(matrix.rows.find((r) => r.node === "master-2")).toMatchObject({ present: false, controlPlane: false, state: "orphaned" });
    expect(matrix.cells.filter((c) => c.orphaned).map((c) => `${c.node}/${c.keyID}`)).toEqual(["master-2/2", "master-2/1"]);
    expect(matrix.rollup.reasons).toEqual(["master-1: keyID 2 (kekID kek-7c41e0) unhealthy: credential lacks decrypt permission"]);
  });

  it("counts every report as orphaned when no node is listed, and says so", () => {
    const matrix = matrixOf(conditionCr(), { nodes: [] });
    expect(matrix.rollup).toEqual({ degraded: false, reasons: [] });
    expect(matrix.notes).toEqual(["no nodes listed: every report counts as orphaned"]);
  });

  it("flags a lastChecked ahead of the clock beyond the skew, without changing the status", () => {
    const cr = conditionCr();
    const master0 = reporter(cr, "master-0");
    master0.message = master0.message!.replace(/10:14:41Z/g, "10:16:00Z");
    const master1 = reporter(cr, "master-1");
    master1.message = master1.message!.replace(/10:14:52Z/g, "10:15:08Z");
    const matrix = matrixOf(cr);
    expect(matrix.cells.filter((c) => c.node !== "master-2").map((c) => [c.node, c.future, c.ageSeconds, c.status])).toEqual([
      ["master-0", true, -60, "healthy"],
      ["master-0", true, -60, "healthy"],
      ["master-1", false, -8, "unhealthy"],
      ["master-1", false, -8, "healthy"],
    ]);
    expect(matrix.rollup.reasons).toHaveLength(2);
  });
});

describe("buildKmsMatrix: the same (node, keyID) reported more than once", () => {
  it("prefers the typed design on a tie and notes every duplicate", () => {
    const matrix = buildKmsMatrix({
      now: NOW,
      intervalSeconds: 30,
      nodes: masters(),
      sources: [
        { source: "kubeapiservers", view: readOperatorStatus(conditionCr()) },
        { source: "kubeapiservers", view: readOperatorStatus(typedCr()) },
      ],
    });
    expect(matrix.cells).toHaveLength(6);
    expect(matrix.cells.every((c) => c.design === "typed")).toBe(true);
    expect(matrix.notes).toHaveLength(6);
    expect(matrix.notes[0]).toBe(
      "master-0 keyID 2: reported by kubeapiservers/condition (healthy at 2026-08-20T10:14:41Z) and kubeapiservers/typed (healthy at 2026-08-20T10:14:41Z); kept the newest, kubeapiservers/typed",
    );
  });

  it("keeps the newest report across designs and sources, naming a disagreement", () => {
    const cr = conditionCr();
    const master1 = reporter(cr, "master-1");
    master1.message = master1.message!.replace(/10:14:52Z/g, "10:14:59Z").replace('"status":"unhealthy"', '"status":"error"');
    const matrix = buildKmsMatrix({
      now: NOW,
      intervalSeconds: 30,
      nodes: masters(),
      sources: [
        { source: "kubeapiservers", view: readOperatorStatus(typedCr()) },
        { source: "openshiftapiservers", view: readOperatorStatus(cr) },
      ],
    });
    expect(matrix.cells.find((c) => c.node === "master-1" && c.keyID === "2")).toMatchObject({
      reported: "error",
      kekID: "kek-7c41e0",
      source: "openshiftapiservers",
      design: "condition",
    });
    expect(matrix.notes).toContain(
      "master-1 keyID 2: reported by kubeapiservers/typed (unhealthy at 2026-08-20T10:14:52Z) and openshiftapiservers/condition (error at 2026-08-20T10:14:59Z); they disagree (unhealthy vs error); kept the newest, openshiftapiservers/condition",
    );
    expect(matrix.rollup.reasons[0]).toBe("master-1: keyID 2 (kekID kek-7c41e0) error: credential lacks decrypt permission");
  });
});
