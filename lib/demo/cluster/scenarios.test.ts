import { describe, expect, it } from "vitest";
import { loadCatalog } from "@/lib/catalog/load";
import { NotFound } from "@/lib/errors";
import { parseKmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import { parseOpenBaoHealth, parseTransitKey } from "@/lib/sources/probes/parse-openbao";
import { parsePrometheusText } from "@/test/parse-prometheus";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { DemoCluster } from "./cluster";
import type { JsonObject } from "./fields";
import { renderApiserverMetrics, renderBeaconHealth, renderKmsProviders, renderOpenBaoHealth, renderPluginMetrics, renderTransitKey } from "./render-endpoints";
import { RESOURCES } from "./resources";
import { isApiScenario, listScenarios, SCENARIOS, setScenario } from "./scenarios";

/**
 * What a scrape shows apart from the clock's own ticking: gauges by value (timestamps left out), counters
 * by how much they grow over ten seconds (a counter that stands still is not shown).
 */
async function scrape(now: Date, render: (at: Date) => Promise<string | undefined>) {
  const read = async (at: Date) => parsePrometheusText((await render(at)) ?? "").families;
  const [first, later] = [await read(now), await read(new Date(now.getTime() + 10_000))];
  const key = (s: { name: string; labels: Record<string, string> }) => `${s.name}${JSON.stringify(s.labels)}`;
  const after = new Map(later.flatMap((f) => f.samples.map((s) => [key(s), s.value] as const)));
  return first
    .flatMap((f) =>
      f.samples.flatMap((s) => {
        if (f.type === "gauge") return s.name.includes("timestamp") ? [] : [`${key(s)}=${s.value}`];
        const growth = (after.get(key(s)) ?? NaN) - s.value;
        return growth === 0 ? [] : [`${key(s)}+=${Number(growth.toPrecision(6))}`];
      }),
    )
    .sort();
}

/** Everything a watcher of this cluster could see, without the clock's own ticking. */
async function observe(cluster: DemoCluster) {
  const now = cluster.now();
  const cr = cluster.store.get(RESOURCES[0], undefined, "cluster");
  const status = readOperatorStatus(cr);
  const bao = renderOpenBaoHealth(cluster.model, now);
  const objects = RESOURCES.slice(3).flatMap((t) =>
    cluster.store.list(t).items.map((o) => JSON.stringify({ kind: o.kind, name: (o.metadata as JsonObject).name, status: o.status, webhooks: o.webhooks })),
  );
  return {
    reports: status.reporterConditions.map((c) => ({
      node: c.nodeName,
      fresh: c.parsed.reports.every((r) => r.lastChecked === now.toISOString().replace(/\.\d{3}Z$/, "Z")),
      reports: c.parsed.reports.map((r) => ({ ...r, lastChecked: undefined })),
    })),
    providers: cluster.model.nodes.map((n) =>
      parseKmsProvidersHealth(renderKmsProviders(cluster.model, n, 0).status, renderKmsProviders(cluster.model, n, 0).body),
    ),
    openbao: bao === "unreachable" ? "unreachable" : parseOpenBaoHealth(bao.status, bao.body).state,
    transit: JSON.stringify(parseTransitKey(renderTransitKey(cluster.model, now).body)),
    apiserverMetrics: await scrape(now, (at) => renderApiserverMetrics(cluster.model, cluster.model.nodes[0], at)),
    pluginMetrics: await scrape(now, (at) => renderPluginMetrics(cluster.model, cluster.model.nodes[0], "1", at)),
    objects,
    beacon: renderBeaconHealth(cluster.model),
  };
}

describe("scenarios", () => {
  const catalogIds = new Set(loadCatalog().entries.map((e) => e.id));

  it("are named by catalog id (or say they have none)", () => {
    for (const s of SCENARIOS) {
      if (s.catalog) expect(catalogIds, s.id).toContain(s.catalog);
      else if (isApiScenario(s)) expect(s.id, "an API fault's id says so").toMatch(/^api-/);
      else expect(["reporter-stale", "node-replaced", "kek-disagreement"]).toContain(s.id);
    }
    expect(SCENARIOS.filter((s) => s.catalog).length).toBeGreaterThanOrEqual(40);
  });

  it("each changes what a watcher sees, and clearing it restores the cluster exactly", async () => {
    // API faults change how the server answers, not what it holds: faults.test.ts covers them.
    for (const scenario of SCENARIOS.filter((s) => !isApiScenario(s))) {
      let now = new Date("2026-08-20T10:00:00Z");
      const cluster = new DemoCluster({ nodes: 3, now: () => now });
      now = new Date("2026-08-20T10:01:00Z");
      cluster.report();
      const before = await observe(cluster);
      setScenario(cluster, scenario.id, true);
      now = new Date("2026-08-20T10:02:00Z");
      cluster.report();
      const during = await observe(cluster);
      expect(during, `${scenario.id} changed nothing visible`).not.toEqual(before);
      setScenario(cluster, scenario.id, false);
      now = new Date("2026-08-20T10:03:00Z");
      cluster.report();
      const after = await observe(cluster);
      if (scenario.id !== "node-replaced") expect(after, `${scenario.id} left something behind`).toEqual(before);
    }
  });

  it("lists which are on, refuses unknown ids, nodes and variants with a reason", () => {
    const cluster = new DemoCluster({ nodes: 3 });
    setScenario(cluster, "clock-skew", true, { node: "master-2" });
    expect(listScenarios(cluster).find((s) => s.id === "clock-skew")).toMatchObject({ active: true, node: "master-2", catalog: "clock-skew" });
    expect(() => setScenario(cluster, "toaster-on-fire", true)).toThrow(
      new NotFound('no scenario "toaster-on-fire"; the list of scenarios names every one (npm run demo -- list)'),
    );
    expect(() => setScenario(cluster, "clock-skew", true, { node: "master-9" })).toThrow(/no node "master-9"; nodes are master-0 to master-2/);
    expect(() => setScenario(cluster, "openbao-sealed", true, { variant: "partly" })).toThrow(/has no variant "partly"/);
  });

  it("a replaced node leaves an orphaned report that nobody updates", () => {
    let now = new Date("2026-08-20T10:00:00Z");
    const cluster = new DemoCluster({ nodes: 3, now: () => now });
    setScenario(cluster, "node-replaced", true, { node: "master-1" });
    now = new Date("2026-08-20T10:05:00Z");
    cluster.report();
    const status = readOperatorStatus(cluster.store.get(RESOURCES[0], undefined, "cluster"));
    const byNode = Object.fromEntries(status.reporterConditions.map((c) => [c.nodeName, c.parsed.reports[0].lastChecked]));
    expect(byNode["master-1"]).toBe("2026-08-20T10:00:00Z");
    expect(byNode["master-1-replacement"]).toBe("2026-08-20T10:05:00Z");
    expect(cluster.store.list(RESOURCES.find((r) => r.plural === "nodes")!).items.map((n) => (n.metadata as JsonObject).name)).toEqual([
      "master-0",
      "master-2",
      "master-1-replacement",
    ]);
  });
});
