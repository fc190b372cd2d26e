import { describe, expect, it } from "vitest";
import { GET as clusterEvents } from "@/app/api/v1/clusters/[name]/events/route";
import { GET as clusterHealth } from "@/app/api/v1/clusters/[name]/health/route";
import { GET as incidentEvents } from "@/app/api/v1/incidents/events/route";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import type { KmsCell } from "@/lib/model/kms-matrix";
import { announceIncidents } from "./bus";
import { applyHealthPush, type HealthPush, type VersionedHealth } from "./health-push";
import { publishHealth, registerCluster } from "./registry";
import { nextEvent } from "@/test/sse";

// Through the real route handlers: a page that holds GET .../health (with its version) and listens to
// .../events receives, for one changed cell, a "health" push with that cell only, and ends up with the new health.

const NODES = 2_000;
function health(at: number, broken?: string): ClusterHealth {
  const now = new Date(Date.UTC(2026, 10, 23, 9, 0, at)).toISOString();
  const cells: KmsCell[] = Array.from({ length: NODES }, (_, i) => {
    const node = `node-${i}`;
    const status = node === broken ? "unhealthy" : "healthy";
    const lastChecked = new Date(Date.UTC(2026, 10, 23, 9, 0, 0)).toISOString();
    return {
      node,
      keyID: "1",
      status,
      reported: status,
      lastChecked,
      ageSeconds: (Date.parse(now) - Date.parse(lastChecked)) / 1000,
      stale: false,
      future: false,
      orphaned: false,
      source: "kubeapiservers",
      design: "condition",
    };
  });
  return {
    name: "sse",
    simulated: true,
    checkedAt: now,
    intervalSeconds: 30,
    sources: [{ name: "kubeapiserver", up: true }],
    matrix: {
      now,
      intervalSeconds: 30,
      thresholdSeconds: 90,
      futureSkewSeconds: 5,
      rows: [],
      cells,
      rollup: { degraded: broken !== undefined, reasons: broken ? [`${broken}: plugin unhealthy`] : [] },
      agreement: [],
      migration: { inProgress: false, keyIDs: ["1"] },
      unreadable: [],
      hasReports: true,
      notes: [],
    },
    serverMatrices: [],
    reasons: broken ? [`${broken}: plugin unhealthy`] : [],
    signals: cells.map((c) => ({
      id: "kms.plugin.unhealthy",
      subject: `${c.node}/1`,
      state: c.status === "healthy" ? "ok" : "critical",
      detail: c.status,
      evidence: c,
    })),
    summary: broken ? { state: "degraded", line: "1 plugin unhealthy" } : { state: "ok", line: "all healthy" },
  };
}

describe("the live routes", () => {
  it("push a one-cell change as that cell, which the page applies to the health it fetched", async () => {
    registerCluster("sse", "alone");
    publishHealth(health(1));
    const fetched = (await (
      await clusterHealth(new Request("http://x/api/v1/clusters/sse/health"), { params: Promise.resolve({ name: "sse" }) })
    ).json()) as VersionedHealth;
    expect(fetched.version).toEqual(expect.any(Number));
    const abort = new AbortController();
    const response = await clusterEvents(new Request("http://x/api/v1/clusters/sse/events", { signal: abort.signal }), {
      params: Promise.resolve({ name: "sse" }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const heard = nextEvent(reader, "health");
    const next = health(3, "node-1234");
    publishHealth(next);
    const data = await heard;
    abort.abort();
    const push = JSON.parse(data) as HealthPush;
    expect(push).toMatchObject({ cluster: "sse", version: fetched.version + 1, base: fetched.version });
    expect(push.patch.matrix?.cells?.put?.map((c) => c.node)).toEqual(["node-1234"]);
    expect(push.patch.signals?.put?.map((s) => s.subject)).toEqual(["node-1234/1"]);
    expect(push.patch.set?.matrix).toBeUndefined();
    expect(push.patch.set?.signals).toBeUndefined();
    expect(data).not.toContain("node-1233");
    expect(applyHealthPush(fetched, push)).toEqual({ ...JSON.parse(JSON.stringify(next)), version: push.version });
  });

  it("tell incident pages which incidents changed, with a version", async () => {
    const abort = new AbortController();
    const reader = (await incidentEvents(new Request("http://x/api/v1/incidents/events", { signal: abort.signal }))).body!.getReader();
    const heard = nextEvent(reader, "incidents");
    announceIncidents([7, 9]);
    const push = JSON.parse(await heard);
    abort.abort();
    expect(push).toEqual({ version: expect.any(Number), ids: [7, 9] });
  });
});
