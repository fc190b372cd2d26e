import { describe, expect, it } from "vitest";
import { GET as clusterEvents } from "@/app/api/v1/clusters/[name]/events/route";
import { GET as clusterHealth } from "@/app/api/v1/clusters/[name]/health/route";
import { GET as healthNode } from "@/app/api/v1/clusters/[name]/health/nodes/[node]/route";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { composeClusterHealth } from "@/lib/signals/cluster-health";
import type { HealthInView, HealthRow } from "@/lib/signals/health-view";
import { demoSources, withReport } from "@/test/demo-sources";
import { readSources } from "@/lib/sources/readings";
import { applyHealthPush, type HealthPush } from "./health-push";
import { publishHealth, registerCluster } from "./registry";
import { nextEvent } from "@/test/sse";

// The health API's views through the real route handlers, on the simulator's 2,000-node objects: the summary the
// page holds and its pushes, rows by page, one node, and a precise 400 for every parameter that is wrong.

const NODES = 2_000;
const cluster = new DemoCluster({ nodes: NODES, intervalMs: 30_000 });
const compose = (sources = demoSources(cluster)) =>
  composeClusterHealth({ name: "views", simulated: true, intervalSeconds: 30, readings: readSources(sources), now: cluster.now() });
registerCluster("views", "alone");
publishHealth(compose());

const ctx = (name = "views") => ({ params: Promise.resolve({ name }) });
const get = (query: string, name = "views") => clusterHealth(new Request(`http://x/api/v1/clusters/${name}/health${query}`), ctx(name));
const node = (n: string, query = "") =>
  healthNode(new Request(`http://x/api/v1/clusters/views/health/nodes/${n}${query}`), { params: Promise.resolve({ name: "views", node: n }) });

describe("the health API's views", () => {
  it("answers the summary small, and its push brings a node that turns bad into view", async () => {
    const whole = await get("");
    const summary = await get("?view=summary");
    expect(summary.status).toBe(200);
    const held = (await summary.json()) as HealthInView & { version: number };
    const wholeBytes = (await whole.text()).length;
    expect(JSON.stringify(held).length).toBeLessThan(wholeBytes / 20);
    expect(held.matrix!.inView.counts).toMatchObject({ total: NODES, healthy: NODES });
    expect(held.matrix!.rows).toEqual([]);

    const abort = new AbortController();
    const response = await clusterEvents(new Request("http://x/api/v1/clusters/views/events?view=summary", { signal: abort.signal }), ctx());
    const heard = nextEvent(response.body!.getReader(), "health");
    const failed = withReport(cluster.object("operator.openshift.io", "kubeapiservers", "cluster"), "master-1234", {
      status: "unhealthy",
      detail: "connection refused",
    });
    publishHealth(compose(demoSources(cluster, { kubeapiserver: failed })));
    const data = await heard;
    abort.abort();
    const push = JSON.parse(data) as HealthPush;
    expect(push.base).toBe(held.version);
    expect(data.length).toBeLessThan(20_000);
    const after = applyHealthPush(held, push)!;
    expect(after.matrix!.rows.map((r) => r.node)).toEqual(["master-1234"]);
    expect(after.matrix!.inView.counts).toMatchObject({ healthy: NODES - 1, unhealthy: 1 });
    expect(after.signals.some((s) => s.subject === "master-1234/1" && s.state === "critical")).toBe(true);
    publishHealth(compose());
  });

  it("pages through the healthy rows with no row twice and none left out", async () => {
    const seen: string[] = [];
    let cursor = "";
    for (let i = 0; i < 10; i++) {
      const response = await get(`?view=rows&state=healthy&limit=500${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { total: number; rows: HealthRow[]; nextCursor: string | null };
      expect(page.total).toBe(NODES);
      seen.push(...page.rows.map((r) => r.node));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toHaveLength(NODES);
    expect(new Set(seen).size).toBe(NODES);
  });

  it("gives one node across its matrices, 404 for a node or a cluster it does not know", async () => {
    const one = await node("master-7");
    expect(one.status).toBe(200);
    const body = (await one.json()) as { node: string; matrices: { server: string; row: HealthRow }[] };
    expect(body.node).toBe("master-7");
    expect(body.matrices[0]).toMatchObject({ server: "kube-apiserver", row: { node: "master-7", class: "healthy" } });
    expect((await node("master-99999")).status).toBe(404);
    expect((await node("master-7", "?x=1")).status).toBe(400);
    expect((await get("?view=summary", "nope")).status).toBe(404);
  });

  it.each([
    ["?view=everything", "view"],
    ["?view=summary&view=rows", "view"],
    ["?state=healthy", "state"],
    ["?view=summary&limit=5", "limit"],
    ["?view=rows&colour=red", "colour"],
    ["?view=rows&state=sick", "state"],
    ["?view=rows&server=etcd", "server"],
    ["?view=rows&limit=0", "limit"],
    ["?view=rows&limit=501", "limit"],
    ["?view=rows&limit=1e2", "limit"],
    ["?view=rows&cursor=bm90LWEtY3Vyc29y", "cursor"],
    ["?view=rows&cursor=%00", "cursor"],
  ])("refuses %s with a 400 naming %s", async (query, field) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; fields: Record<string, string[]> };
    expect(Object.keys(body.fields)).toEqual([field]);
  });

  it("refuses an events stream of a view it does not offer", async () => {
    const response = await clusterEvents(new Request("http://x/api/v1/clusters/views/events?view=rows"), ctx());
    expect(response.status).toBe(400);
  });
});
