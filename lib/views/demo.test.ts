import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { CATEGORIES } from "@/lib/catalog/schema";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { scenarioRows } from "./demo";

// The demo page's scenario table: each row names the catalog failure it reproduces, under the catalog's group.

describe("the demo page's scenario rows", () => {
  const cluster = new DemoCluster({ nodes: 3, intervalMs: 30_000 });
  const rows = scenarioRows(cluster);
  const entries = new Map(getCatalog().entries.map((e) => [e.id, e]));

  it("give a scenario that reproduces a catalog entry that entry's title and its category's name as the group", () => {
    const withEntry = rows.filter((r) => r.catalog);
    expect(withEntry.length).toBeGreaterThan(0);
    for (const row of withEntry) {
      const entry = entries.get(row.catalog!);
      expect(entry, `scenario ${row.id} names catalog entry ${row.catalog}`).toBeDefined();
      expect(row.catalogTitle).toBe(entry!.title);
      expect(row.group).toBe(CATEGORIES.find((c) => c.id === entry!.category)!.name);
    }
  });

  it("put faults of the API server itself under their own group, and scenarios without an entry under health reporting", () => {
    const api = rows.filter((r) => r.api);
    expect(api.length).toBeGreaterThan(0);
    for (const row of api) expect(row).toMatchObject({ group: "API server faults", catalogTitle: undefined });
    for (const row of rows.filter((r) => !r.api && !r.catalog)) expect(row).toMatchObject({ group: "Health reporting", catalogTitle: undefined });
  });

  it("show which scenario is in force, and on which node", () => {
    expect(rows.find((r) => r.id === "kms-plugin-unavailable")?.active).toBe(false);
    setScenario(cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    expect(scenarioRows(cluster).find((r) => r.id === "kms-plugin-unavailable")).toMatchObject({ active: true, node: "master-1" });
  });
});
