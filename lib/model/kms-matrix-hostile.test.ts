import { describe, expect, it } from "vitest";
import { conditionCr, masters, matrixOf, NOW, reporter, typedCr } from "@/test/kms-matrix-fixtures";
import { buildKmsMatrix, DETAIL_LIMIT, type KmsMatrix } from "./kms-matrix";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { describeReadProblem } from "@/lib/sources/kube/read-problem";

// Input a cluster should never produce but a monitor will eventually see: cut messages, runaway details,
// statuses nobody defined, repeated entries. None of it may throw or vanish.

const UNHEALTHY_REASON = "master-1: keyID 2 (kekID kek-7c41e0) unhealthy: credential lacks decrypt permission";

/** The skipped reports as pages show them: source and the problem's sentence. */
const unreadableText = (matrix: KmsMatrix) => matrix.unreadable.map(({ source, problem }) => ({ source, problem: describeReadProblem(problem) }));

describe("buildKmsMatrix on unreadable reporter messages", () => {
  it("keeps a truncated JSON message whole, marks the node unparseable and degrades the rollup with the reason", () => {
    const cr = conditionCr();
    const master2 = reporter(cr, "master-2");
    master2.message = master2.message!.slice(0, 40);
    const matrix = matrixOf(cr);
    expect(matrix.rows.find((r) => r.node === "master-2")).toEqual({
      node: "master-2",
      present: true,
      controlPlane: true,
      state: "unparseable",
      firstSeen: "2026-08-12T07:22:18Z",
      unparseable: { raw: master2.message, error: "invalid JSON: input ends early after 40 characters (truncated?)", source: "kubeapiservers" },
    });
    expect(matrix.cells.some((c) => c.node === "master-2")).toBe(false);
    expect(matrix.rollup).toEqual({
      degraded: true,
      reasons: [UNHEALTHY_REASON, "master-2: health message on kubeapiservers is unparseable: invalid JSON: input ends early after 40 characters (truncated?)"],
    });
  });

  it("treats a status value nobody defined as unparseable in a message and unreadable in a typed entry", () => {
    const cr = conditionCr();
    const master0 = reporter(cr, "master-0");
    master0.message = master0.message!.replace('"status":"healthy"', '"status":"degraded"');
    const typed = typedCr();
    typed.status.encryptionStatus.healthReports[3].status = "Degraded";
    const matrix = matrixOf(cr, {
      sources: [
        { source: "kubeapiservers", view: readOperatorStatus(cr) },
        { source: "authentications", view: readOperatorStatus(typed) },
      ],
    });
    expect(matrix.rows.find((r) => r.node === "master-0")?.state).toBe("unparseable");
    // master-0 still has cells from the typed CR; the unreadable message wins the row state all the same.
    expect(matrix.cells.filter((c) => c.node === "master-0").map((c) => c.source)).toEqual(["authentications", "authentications"]);
    expect(unreadableText(matrix)).toEqual([
      {
        source: "authentications",
        problem: 'status.encryptionStatus.healthReports[3] skipped: status "Degraded" is not Healthy, Unhealthy or Error',
      },
    ]);
    expect(matrix.rollup.reasons).toEqual([
      'master-0: health message on kubeapiservers is unparseable: entry 1: status "degraded" is not healthy, unhealthy or error',
      // Same lastChecked in both CRs: the typed report wins the tie, and it carries no kekID.
      "master-1: keyID 2 unhealthy: credential lacks decrypt permission",
      "master-2: report stale: lastChecked 2026-08-20T10:11:37Z is 203s old (threshold 120s)",
      'authentications: health report unreadable: status.encryptionStatus.healthReports[3] skipped: status "Degraded" is not Healthy, Unhealthy or Error',
    ]);
  });

  it("reads the first draft's key=value lines, with its 'unreachable' as error", () => {
    const cr = conditionCr();
    reporter(cr, "master-0").message =
      "keyID=2 kekID=kek-7c41e0 status=unreachable lastChecked=2026-08-20T10:14:41Z detail=dial unix /var/run/kmsplugin/kms-2.sock: connect: no such file";
    const matrix = matrixOf(cr);
    expect(matrix.cells[0]).toMatchObject({ node: "master-0", keyID: "2", reported: "error", status: "error" });
    expect(matrix.rollup.reasons[0]).toBe("master-0: keyID 2 (kekID kek-7c41e0) error: dial unix /var/run/kmsplugin/kms-2.sock: connect: no such file");
  });

  it("treats a valid but empty list like no report: alive, probing nothing", () => {
    const cr = conditionCr();
    reporter(cr, "master-0").message = "[]";
    const row = matrixOf(cr).rows.find((r) => r.node === "master-0");
    expect(row?.state).toBe("unknown");
  });
});

describe("buildKmsMatrix on a 1 MB detail", () => {
  it("cuts the cell to 2,000 characters and the reason to 1,000, on one line, keeping both ends, quickly", () => {
    const cr = conditionCr();
    const huge = `line one\nline two ${"x".repeat(1_000_000)}`;
    const master1 = reporter(cr, "master-1");
    master1.message = master1.message!.replace("credential lacks decrypt permission", JSON.stringify(huge).slice(1, -1));
    const started = performance.now();
    const matrix = matrixOf(cr);
    expect(performance.now() - started).toBeLessThan(500);
    const cell = matrix.cells.find((c) => c.node === "master-1" && c.keyID === "2");
    expect(cell?.detail).toHaveLength(DETAIL_LIMIT);
    expect(cell?.truncated).toBe(true);
    const reason = matrix.rollup.reasons[0];
    expect(reason.startsWith("master-1: keyID 2 (kekID kek-7c41e0) unhealthy: line one line two xxx")).toBe(true);
    // The cell holds the first 2,000 characters; the reason keeps the start and the end of those, cut in the middle.
    expect(reason).toContain(" … ");
    expect(reason.endsWith("xxx")).toBe(true);
    expect(reason.length).toBeLessThanOrEqual("master-1: keyID 2 (kekID kek-7c41e0) unhealthy: ".length + 1000);
  });

  it("never splits a surrogate pair when cutting", () => {
    const cr = conditionCr();
    const master1 = reporter(cr, "master-1");
    master1.message = master1.message!.replace("credential lacks decrypt permission", `${"a".repeat(DETAIL_LIMIT - 1)}🔑🔑`);
    const detail = matrixOf(cr).cells.find((c) => c.node === "master-1" && c.keyID === "2")?.detail ?? "";
    expect(detail).toHaveLength(DETAIL_LIMIT - 1);
    expect(detail).toMatch(/a$/);
  });
});

describe("buildKmsMatrix on repeated entries and odd settings", () => {
  it("notes a repeated reporter condition and a repeated typed entry without counting them as lost health", () => {
    const cr = conditionCr();
    cr.status.conditions.push({ ...reporter(cr, "master-1") });
    const typed = typedCr();
    typed.status.encryptionStatus.healthReports.push({ ...typed.status.encryptionStatus.healthReports[0] });
    const matrix = matrixOf(cr, {
      sources: [
        { source: "kubeapiservers", view: readOperatorStatus(cr) },
        { source: "openshiftapiservers", view: readOperatorStatus(typed) },
      ],
    });
    expect(matrix.unreadable).toEqual([]);
    expect(matrix.notes).toContain('kubeapiservers: status.conditions[18] (type "KMSHealthReporter_master-1") skipped: type repeats status.conditions[15]');
    expect(matrix.notes).toContain(
      'openshiftapiservers: status.encryptionStatus.healthReports[6] skipped: nodeName "master-0" keyID "2" repeats status.encryptionStatus.healthReports[0]',
    );
  });

  it("counts a skipped reporter condition as lost health", () => {
    const cr = conditionCr();
    delete (reporter(cr, "master-0") as { lastTransitionTime?: string }).lastTransitionTime;
    const matrix = matrixOf(cr);
    expect(unreadableText(matrix)).toEqual([
      { source: "kubeapiservers", problem: 'status.conditions[14] (type "KMSHealthReporter_master-0") skipped: lastTransitionTime is missing' },
    ]);
    // Nothing readable is left for master-0, so past its cold start it is unknown as well.
    expect(matrix.rows.find((r) => r.node === "master-0")?.state).toBe("unknown");
  });

  it("merges a node listed twice: control plane if either says so, the earliest firstSeen", () => {
    const nodes = [
      ...masters(),
      { name: "master-3", controlPlane: false, firstSeen: "2026-08-20T10:14:30Z" },
      { name: "master-3", controlPlane: true, firstSeen: "2026-08-20T10:00:00Z" },
    ];
    const matrix = matrixOf(conditionCr(), { nodes });
    expect(matrix.rows.find((r) => r.node === "master-3")).toMatchObject({ controlPlane: true, state: "unknown", firstSeen: "2026-08-20T10:00:00Z" });
    expect(matrix.notes).toEqual(["node master-3 is listed more than once; merged"]);
  });

  it("flags nodes that disagree on the kekID for one keyID", () => {
    const cr = conditionCr();
    const master1 = reporter(cr, "master-1");
    master1.message = master1.message!.replace('"kekID":"kek-3b9a22"', '"kekID":"kek-ffffff"');
    expect(matrixOf(cr).agreement[1]).toEqual({
      keyID: "1",
      kekIDs: [
        { kekID: "kek-3b9a22", nodes: ["master-0"] },
        { kekID: "kek-ffffff", nodes: ["master-1"] },
      ],
      agree: false,
    });
  });

  it("orders keyIDs by number, newest first", () => {
    const cr = conditionCr();
    reporter(cr, "master-0").message = JSON.stringify(
      ["9", "10", "2"].map((keyID) => ({ keyID, kekID: `kek-${keyID}`, status: "healthy", lastChecked: "2026-08-20T10:14:41Z" })),
    );
    const matrix = matrixOf(cr);
    expect(matrix.cells.filter((c) => c.node === "master-0").map((c) => c.keyID)).toEqual(["10", "9", "2"]);
    expect(matrix.migration.keyIDs).toEqual(["10", "9", "2", "1"]);
  });

  it("falls back to the defaults for unusable numbers, rejects an invalid clock, and says when there is nothing to read", () => {
    const matrix = matrixOf(conditionCr(), { intervalSeconds: Number.NaN, staleFactor: -1 });
    expect(matrix.thresholdSeconds).toBe(120);
    expect(matrix.notes).toEqual(["intervalSeconds NaN is not a usable number; using 30", "staleFactor -1 is not a usable number; using 4"]);
    expect(() => matrixOf(conditionCr(), { now: new Date("not a date") })).toThrow(RangeError);
    const empty = buildKmsMatrix({ now: NOW, intervalSeconds: 30, nodes: [], sources: [] });
    expect(empty).toMatchObject({ rows: [], cells: [], rollup: { degraded: false, reasons: [] }, migration: { inProgress: false, keyIDs: [] } });
    expect(empty.notes).toEqual(["no KMS health reports in any source; if KMS encryption is not enabled, this matrix does not apply"]);
  });

  it("survives a source that is not an operator CR at all", () => {
    const matrix = matrixOf("cluster");
    expect(unreadableText(matrix)).toEqual([{ source: "kubeapiservers", problem: "operator CR is a string, not an object" }]);
    expect(matrix.rollup.reasons).toEqual([
      "master-0: no KMS health report 701562s after the node was first seen (threshold 120s)",
      "master-1: no KMS health report 701562s after the node was first seen (threshold 120s)",
      "master-2: no KMS health report 701562s after the node was first seen (threshold 120s)",
      "kubeapiservers: health report unreadable: operator CR is a string, not an object",
    ]);
  });
});
