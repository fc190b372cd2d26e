import { describe, expect, it } from "vitest";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { demoSources } from "@/test/demo-sources";
import { readSources } from "@/lib/sources/readings";
import { composeClusterHealth, type ClusterHealth } from "./cluster-health";
import { classifyRows, decodeCursor, encodeCursor, ROWS_IN_VIEW, SIGNALS_PER_KIND, viewOfHealth } from "./health-view";
import { nodeHealth, pageRows } from "./health-rows";
import { metricsInView, thinPoints } from "./metric-order";

// The view the health page first shows, against the simulator's own objects: bounded whatever the cluster's
// size and state, with every node counted; and the pages of rows it leaves out.

function healthOf(nodes: number, scenario?: { id: string; node?: string }, laterSeconds = 0) {
  const cluster = new DemoCluster({ nodes, intervalMs: 30_000 });
  if (scenario) setScenario(cluster, scenario.id, true, scenario.node ? { node: scenario.node } : {});
  const now = new Date(cluster.now().getTime() + laterSeconds * 1000);
  return composeClusterHealth({ name: "big", simulated: true, intervalSeconds: 30, readings: readSources(demoSources(cluster)), now });
}

/** Every plugin on every node failing, as the matrix and the signals would say (one scenario fails one node). */
function allFailing(health: ClusterHealth): ClusterHealth {
  const matrix = health.matrix!;
  return {
    ...health,
    matrix: { ...matrix, cells: matrix.cells.map((c) => ({ ...c, status: "error", reported: "error", detail: "connection refused" })) },
    reasons: matrix.cells.map((c) => `${c.node}: keyID ${c.keyID} error: connection refused`),
    signals: health.signals.map((s) => (s.id === "kms.plugin.unhealthy" ? { ...s, state: "critical", detail: "connection refused" } : s)),
  };
}

describe("the summary view of a cluster's health", () => {
  it("holds the failing node and counts the healthy ones it leaves out", () => {
    const health = healthOf(500, { id: "kms-plugin-unavailable", node: "master-7" });
    const view = viewOfHealth(health);
    expect(view.matrix!.rows.map((r) => r.node)).toEqual(["master-7"]);
    expect(view.matrix!.cells.map((c) => c.node)).toEqual(["master-7"]);
    expect(view.matrix!.inView.counts).toEqual({ total: 500, healthy: 499, unhealthy: 1, unknown: 0, orphaned: 0 });
    expect(view.matrix!.inView.next).toBeNull();
    // Per-node passing checks are counted, not listed; the failing one is listed.
    expect(view.signals.filter((s) => s.state === "ok" && s.id === "kms.plugin.unhealthy")).toEqual([]);
    expect(view.signalTally).toContainEqual({
      id: "kms.plugin.unhealthy",
      state: "ok",
      count: health.signals.filter((s) => s.id === "kms.plugin.unhealthy" && s.state === "ok").length,
    });
    expect(view.signals.some((s) => s.id === "kms.plugin.unhealthy" && s.state === "critical" && s.subject === "master-7/1")).toBe(true);
    expect(JSON.stringify(view).length).toBeLessThan(40_000);
  });

  it("stays bounded when every node fails, and points at the rest", () => {
    const health = allFailing(healthOf(2_000));
    const view = viewOfHealth(health);
    expect(view.matrix!.inView.counts.unhealthy).toBe(2_000);
    expect(view.matrix!.rows).toHaveLength(ROWS_IN_VIEW);
    expect(view.matrix!.inView.next).not.toBeNull();
    for (const [id, state] of [["kms.plugin.unhealthy", "critical"]])
      expect(view.signals.filter((s) => s.id === id && s.state === state)).toHaveLength(SIGNALS_PER_KIND);
    expect(view.reasons.length).toBeLessThanOrEqual(20);
    expect(view.reasonsTotal).toBe(health.reasons.length);
    expect(JSON.stringify(view).length).toBeLessThan(100_000);
  });

  it("keeps a small cluster whole, passing checks included", () => {
    const health = healthOf(3);
    const view = viewOfHealth(health);
    expect(view.matrix!.rows.map((r) => r.node)).toEqual(["master-0", "master-1", "master-2"]);
    expect(view.matrix!.inView.all).toBe(true);
    expect(view.signals).toEqual(health.signals);
  });

  it("calls a row whose reports went stale unknown, not healthy", () => {
    const view = viewOfHealth(healthOf(60, undefined, 200));
    expect(view.matrix!.inView.counts).toMatchObject({ total: 60, healthy: 0, unknown: 60 });
    expect(view.matrix!.rows).toHaveLength(ROWS_IN_VIEW);
  });
});

describe("rows by page", () => {
  it("walks every row of a state exactly once, in the view's order", () => {
    const health = healthOf(1_003, { id: "kms-plugin-unavailable", node: "master-500" });
    const rows = classifyRows(health.matrix!);
    const seen: string[] = [];
    let cursor: ReturnType<typeof decodeCursor>;
    for (let i = 0; i < 20; i++) {
      const page = pageRows(rows, { server: "kube-apiserver", state: "healthy", limit: 100, cursor });
      expect(page.total).toBe(1_002);
      seen.push(...page.rows.map((r) => r.node));
      if (!page.nextCursor) break;
      cursor = decodeCursor(page.nextCursor);
    }
    expect(seen).toHaveLength(1_002);
    expect(new Set(seen).size).toBe(1_002);
    expect(seen).not.toContain("master-500");
    expect(seen.slice(0, 3)).toEqual(["master-0", "master-1", "master-2"]);
  });

  it("resumes after a cursor whose node has left, without repeating or skipping", () => {
    const rows = classifyRows(healthOf(300).matrix!);
    const first = pageRows(rows, { server: "kube-apiserver", state: "all", limit: 10 });
    const gone = rows.filter((r) => r.node !== first.rows[9].node);
    const next = pageRows(gone, { server: "kube-apiserver", state: "all", limit: 10, cursor: decodeCursor(first.nextCursor!) });
    expect(next.rows[0].node).toBe(rows[10].node);
  });

  it("refuses cursors it did not make", () => {
    expect(decodeCursor("not a cursor")).toBeUndefined();
    expect(decodeCursor(btoa("[1,2]"))).toBeUndefined();
    expect(decodeCursor(btoa('["sick","master-1"]').replaceAll("=", ""))).toBeUndefined();
    expect(decodeCursor(encodeCursor({ class: "healthy", node: "nöde-ü" }))).toEqual({ rank: 3, node: "nöde-ü" });
  });

  it("gives one node across the matrices with its own signals, and nothing for an unknown node", () => {
    const health = healthOf(10, { id: "kms-plugin-unavailable", node: "master-1" });
    const node = nodeHealth(health, "master-1")!;
    expect(node.matrices.map((m) => m.server)).toEqual(["kube-apiserver", "openshift-apiserver", "oauth-apiserver"]);
    expect(node.matrices[0].row).toMatchObject({ class: "unhealthy", cells: [expect.objectContaining({ status: "error" })] });
    expect(node.signals.length).toBeGreaterThan(0);
    expect(node.signals.every((s) => s.subject.split(" ").some((p) => p === "master-1" || p.startsWith("master-1/")))).toBe(true);
    expect(nodeHealth(health, "master-10")).toBeUndefined();
    expect(nodeHealth(health, "master-")).toBeUndefined();
  });
});

describe("the KMS metrics in the summary view", () => {
  it("keeps per metric the series the panel shows first and counts the rest as truncated", () => {
    const series = Array.from({ length: 40 }, (_, i) => ({ labels: { node: `master-${i}` }, value: i, points: [{ t: 0, v: i }] }));
    const metric = (name: string) => ({ name, unit: "seconds", promql: "q", answered: true, series, truncated: 80 });
    const metrics = {
      source: "p",
      at: "t",
      history: { start: "", end: "", stepSeconds: 15 },
      errors: [],
      tookMs: 1,
      metrics: { latencyP99: metric("latencyP99"), tokenTtl: metric("tokenTtl") },
    };
    const view = metricsInView(metrics as never)!;
    expect(view.metrics.latencyP99.series.map((s) => s.value)).toEqual([39, 38, 37, 36, 35, 34]);
    expect(view.metrics.tokenTtl.series.map((s) => s.value)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(view.metrics.latencyP99.truncated).toBe(80 + 34);
  });

  it("thins a 61-point sparkline to 21 buckets that keep the worst value, so a one-point spike still shows", () => {
    const points = Array.from({ length: 61 }, (_, i) => ({ t: i * 15_000, v: i === 30 ? 9 : i === 31 ? null : 1 }));
    const high = thinPoints(points, "highest");
    expect(high).toHaveLength(21);
    expect(high.at(-1)).toEqual({ t: 60 * 15_000, v: 1 });
    expect(high.filter((p) => p.v === 9)).toHaveLength(1);
    expect(thinPoints(points, "lowest").some((p) => p.v === 9)).toBe(false);
    expect(thinPoints([{ t: 0, v: null }, ...points.slice(0, 3)], "highest")).toHaveLength(4);
    expect(
      thinPoints(
        Array.from({ length: 61 }, (_, i) => ({ t: i, v: null })),
        "highest",
      ).every((p) => p.v === null),
    ).toBe(true);
  });

  it("names a signal's huge evidence instead of carrying it", () => {
    const health = healthOf(3);
    const nodes = Array.from({ length: 5_000 }, (_, i) => `master-${i}`);
    const huge = { ...health.signals[0], detail: `all agree: ${nodes.join(", ")}`, evidence: { nodes } };
    const view = viewOfHealth({ ...health, signals: [huge, ...health.signals.slice(1)] });
    expect(view.signals[0].evidence).toEqual({ omitted: expect.stringMatching(/^\d+ characters of evidence/) });
    expect(view.signals[0].detail).toMatch(/^all agree: master-0, master-1, .*… \(\d+ characters in all\)$/);
    expect(view.signals[0].detail.length).toBeLessThan(2_100);
    expect(view.signals[1]).toEqual(health.signals[1]);
  });
});
