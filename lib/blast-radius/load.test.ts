import { afterEach, describe, expect, it } from "vitest";
import { loadCatalog } from "@/lib/catalog/load";
import { brokenCatalog, catalogErrors, lineOf } from "@/test/catalog-copy";

describe("blast-radius pages", () => {
  it("exist for the webhook, wrapper, eBPF agent, beacon, OpenBao, KMS plugin, health reporter and backout", () => {
    const ids = loadCatalog()
      .blastRadius.map((p) => p.id)
      .sort();
    expect(ids).toEqual(["backout", "beacon", "ebpf-agent", "health-reporter", "kms-plugin", "openbao", "webhook", "wrapper"]);
  });

  it("compare the webhook up and down under Ignore and under Fail", () => {
    const webhook = loadCatalog().blastRadius.find((p) => p.id === "webhook")!;
    const matrix = webhook.sections.find((s) => s.matrix)!.matrix!;
    expect(matrix.rows.map((r) => r.cells[0])).toEqual([expect.stringMatching(/^Ignore/), expect.stringMatching(/^Fail/)]);
    expect(matrix.rows[0].catalog).toContain("webhook-unreachable-ignore");
    expect(matrix.rows[1].catalog).toContain("webhook-unreachable-fail");
  });

  let cleanup = () => {};
  afterEach(() => cleanup());

  it("rejects a scenario row that links nowhere, with its line", () => {
    const FILE = "blast-radius/wrapper.yaml";
    const copy = brokenCatalog(FILE, (t) =>
      t.replace(/(- scenario: [^\n]*\n(?:\s+behaviour: [^\n]*\n(?:\s{10,}[^\n]*\n)*))\s+catalog: \[[^\]]*\]\n\s+runbooks: \[[^\]]*\]\n/, "$1"),
    );
    cleanup = copy.cleanup;
    const errors = catalogErrors(copy.root);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^catalog/${FILE}:\\d+: wrapper: scenario ".+" links nowhere: give it a catalog entry or a runbook$`));
    const line = Number(errors[0].split(":")[1]);
    expect(lineOf(copy.root, FILE, "- scenario:")).toBe(line);
  });
});
