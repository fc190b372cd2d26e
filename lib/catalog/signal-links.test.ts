import { describe, expect, it } from "vitest";
import { getCatalog } from "./queries";
import { CATALOG_LINKS_PER_SIGNAL, signalLinks } from "./signal-links";

describe("signal links (the chips under a firing signal on /health and on an incident)", () => {
  const { entries, runbooks, signals } = getCatalog();

  it("give every defined signal its failure modes (at most six, catalog order) and the runbooks that ask about it", () => {
    const links = signalLinks();
    expect(Object.keys(links).sort()).toEqual(signals.map((s) => s.id).sort());
    const plugin = links["kms.plugin.unhealthy"];
    const detecting = entries.filter((e) => e.kind === "failure-mode" && e.signals.includes("kms.plugin.unhealthy"));
    expect(detecting.length).toBeGreaterThan(0);
    expect(plugin.catalog).toEqual(detecting.slice(0, CATALOG_LINKS_PER_SIGNAL).map((e) => ({ id: e.id, title: e.title })));
    expect(plugin.runbooks.map((r) => r.id)).toContain("kms-plugin-unhealthy");
    for (const r of plugin.runbooks) expect(runbooks.find((x) => x.id === r.id)?.nodes.some((n) => n.signal === "kms.plugin.unhealthy")).toBe(true);
    for (const link of Object.values(links)) expect(link.catalog.length).toBeLessThanOrEqual(CATALOG_LINKS_PER_SIGNAL);
  });

  it("for an incident's signals are the same links the health page shows, each signal once", () => {
    const all = signalLinks();
    const some = signalLinks(["kms.plugin.unhealthy", "kms.plugin.unhealthy", "openbao.sealed"]);
    expect(Object.keys(some).sort()).toEqual(["kms.plugin.unhealthy", "openbao.sealed"]);
    expect(some["kms.plugin.unhealthy"]).toEqual(all["kms.plugin.unhealthy"]);
    expect(some["openbao.sealed"]).toEqual(all["openbao.sealed"]);
  });

  it("link a signal no catalog entry names to nothing, not to everything", () => {
    expect(signalLinks(["made.up.signal"])).toEqual({ "made.up.signal": { catalog: [], runbooks: [] } });
  });
});
