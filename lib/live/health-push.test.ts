import { describe, expect, it } from "vitest";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { demoSources, withReport } from "@/test/demo-sources";
import { readSources } from "@/lib/sources/readings";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import type { KmsCell, KmsMatrix } from "@/lib/model/kms-matrix";
import type { Signal, SignalId, SignalStatus } from "@/lib/signals/signal-model";
import { applyHealthPush, cellKey, diffHealth, type HealthPush, type VersionedHealth } from "./health-push";

// Pushes carry what changed: applying them to what a page holds gives exactly the server's health, and one
// changed cell among 5,000 nodes travels as that cell, not as the whole health.

/** What the page receives: the push after JSON on the wire. */
const wire = (push: HealthPush): HealthPush => JSON.parse(JSON.stringify(push));
const plain = (health: ClusterHealth) => JSON.parse(JSON.stringify(health));

/** The demo cluster's 5,000 nodes as the monitor reads them; `report` changes the kubeapiserver CR it reads. */
function bigCluster() {
  const cluster = new DemoCluster({ nodes: 5_000, intervalMs: 30_000 });
  let kubeapiserver = cluster.object("operator.openshift.io", "kubeapiservers", "cluster");
  const compose = (now: Date) =>
    composeClusterHealth({
      name: "big",
      simulated: true,
      intervalSeconds: 30,
      readings: readSources(demoSources(cluster, { kubeapiserver, lastSuccess: "2026-11-23T00:00:00Z" })),
      now,
    });
  /** One node's plugin reports anew (as its reporter does between the others'). */
  const report = (node: string, change: Record<string, string>) => {
    kubeapiserver = withReport(kubeapiserver, node, change);
  };
  return { compose, report };
}

describe("a health push", () => {
  it("carries one changed cell of 5,000 nodes, not the whole health, and the page ends up with the new health exactly", () => {
    const { compose, report } = bigCluster();
    const t0 = new Date();
    const before = compose(t0);
    report("master-0", { status: "unhealthy", lastChecked: new Date(t0.getTime() + 1_000).toISOString().replace(/\.\d+Z$/, "Z") });
    // Two seconds later: every cell's age moved on, one cell's report changed.
    const after = compose(new Date(t0.getTime() + 2_000));
    const was = new Map(before.matrix!.cells.map((c) => [cellKey(c), c.status]));
    const changedCells = after.matrix!.cells.filter((c) => was.get(cellKey(c)) !== c.status);
    expect(changedCells.map((c) => c.node)).toEqual(["master-0"]);

    const push = wire(diffHealth(before, after, 8, 7));
    expect(push.patch.matrix?.cells?.put?.map(cellKey)).toEqual(changedCells.map(cellKey));
    expect(push.patch.matrix?.cells?.drop).toBeUndefined();
    // Only master-0's signals travel (its plugin, its report); of the rest, only what the degraded roll-up changed.
    expect(push.patch.signals?.put?.map((s) => [s.id, s.subject])).toContainEqual(["kms.plugin.unhealthy", "master-0/1"]);
    expect(push.patch.signals?.put?.every((s) => s.subject === "master-0" || s.subject.startsWith("master-0/"))).toBe(true);
    expect(Object.keys(push.patch.set ?? {}).sort()).toEqual(["checkedAt", "reasons", "summary"]);
    expect(JSON.stringify(push).length).toBeLessThan(JSON.stringify(after).length / 100);

    const page = applyHealthPush({ ...plain(before), version: 7 }, push);
    expect(page).toEqual({ ...plain(after), version: 8 });
  });

  it("is refused when it does not follow the version the page holds, so the page fetches the whole health once", () => {
    const { compose } = bigCluster();
    const a = compose(new Date(Date.UTC(2026, 10, 23, 9, 0, 0)));
    const b = compose(new Date(Date.UTC(2026, 10, 23, 9, 0, 5)));
    expect(applyHealthPush({ ...plain(a), version: 6 }, wire(diffHealth(a, b, 8, 7)))).toBeUndefined();
    expect(applyHealthPush(undefined, wire(diffHealth(a, b, 8, 7)))).toBeUndefined();
    // The first push of a cluster is the whole health and needs nothing before it.
    expect(applyHealthPush(undefined, wire(diffHealth(undefined, b, 1, null)))).toEqual({ ...plain(b), version: 1 });
  });
});

// A small deterministic generator of healths: signals, a matrix and an aggregated server's matrix whose cells
// come and go, change, age with the clock and reorder; optional parts appear and vanish.
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const STATES: SignalStatus[] = ["ok", "warning", "critical", "unknown"];
const IDS: SignalId[] = ["kms.plugin.unhealthy", "openbao.sealed", "beacon.unreachable", "kms.report.stale"];

function randomHealth(rnd: () => number, step: number): ClusterHealth {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const now = new Date(Date.UTC(2026, 10, 23, 9, 0, 0) + step * 1500 + Math.floor(rnd() * 3) * 250).toISOString();
  const nodes = Array.from({ length: 12 }, (_, i) => `node-${i}`).filter(() => rnd() < 0.8);
  if (rnd() < 0.3) nodes.reverse();
  const matrixAt = (nowIso: string): KmsMatrix => {
    const cells: KmsCell[] = nodes.flatMap((node) =>
      ["1", "2"]
        .filter(() => rnd() < 0.9)
        .map((keyID) => {
          const lastChecked = new Date(Date.UTC(2026, 10, 23, 9, 0, 0) + Math.floor(rnd() * 4) * 1000).toISOString();
          const reported = pick(["healthy", "unhealthy"] as const);
          return {
            node,
            keyID,
            status: reported,
            reported,
            lastChecked,
            ageSeconds: (Date.parse(nowIso) - Date.parse(lastChecked)) / 1000,
            stale: false,
            future: false,
            orphaned: rnd() < 0.1,
            source: "kubeapiserver",
            ...(rnd() < 0.3 ? { detail: pick(["decrypt denied", "timeout"]) } : {}),
          } as KmsCell;
        }),
    );
    return {
      now: nowIso,
      intervalSeconds: 30,
      thresholdSeconds: 90,
      futureSkewSeconds: 5,
      rows: nodes.map((node) => ({ node, present: true, controlPlane: rnd() < 0.3, state: pick(["reporting", "stale"] as const) })),
      cells,
      rollup: { state: pick(["healthy", "degraded"]) } as never,
      agreement: [],
      migration: { inProgress: false, keyIDs: ["1"] } as never,
      unreadable: [],
      hasReports: true,
      notes: rnd() < 0.2 ? ["a note"] : [],
    };
  };
  const matrix = matrixAt(now);
  const signals: Signal[] = [
    ...matrix.cells.map((c) => ({
      id: "kms.plugin.unhealthy" as SignalId,
      subject: `${c.node}/${c.keyID}`,
      state: c.status === "healthy" ? ("ok" as const) : ("critical" as const),
      detail: c.detail ?? "healthy",
      evidence: c,
    })),
    ...IDS.slice(1)
      .filter(() => rnd() < 0.7)
      .map((id) => ({
        id,
        subject: pick(["openbao", "beacon", "cluster"]),
        state: pick(STATES),
        detail: pick(["a", "b"]),
        evidence: rnd() < 0.5 ? null : { n: Math.floor(rnd() * 3) },
      })),
  ];
  const unique = [...new Map(signals.map((x) => [`${x.id} ${x.subject}`, x])).values()];
  if (rnd() < 0.2) unique.reverse();
  return {
    name: "prop",
    simulated: false,
    checkedAt: now,
    intervalSeconds: 30,
    sources: [{ name: "kubeapiserver", up: rnd() < 0.8, lastSuccess: now }],
    ...(rnd() < 0.8 ? { matrix } : {}),
    serverMatrices: rnd() < 0.7 ? [{ server: "oauth-apiserver", cr: "authentications", matrix: matrixAt(now) }] : [],
    reasons: rnd() < 0.5 ? [] : ["one reason"],
    ...(rnd() < 0.3 ? { disagreement: "they disagree" } : {}),
    ...(rnd() < 0.2 ? { refused: [{ unit: "x", reason: "y", stage: "store" as const }] } : {}),
    signals: unique,
    summary: { state: pick(["ok", "degraded", "unknown"] as const), line: pick(["fine", "not fine"]) },
  };
}

describe("applying the pushes of a sequence of healths", () => {
  it("reproduces the last health exactly, for 200 random sequences", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rnd = random(seed);
      const healths = Array.from({ length: 12 }, (_, step) => randomHealth(rnd, step));
      // Sometimes a health repeats, or only the clock moves on (the same reports composed later).
      healths[5] = healths[4];
      let previous: ClusterHealth | undefined;
      let page: VersionedHealth | undefined;
      healths.forEach((health, i) => {
        page = applyHealthPush(page, wire(diffHealth(previous, health, i + 1, previous ? i : null)));
        expect(page, `seed ${seed}, step ${i}`).toEqual({ ...plain(health), version: i + 1 });
        previous = health;
      });
    }
  });
});
