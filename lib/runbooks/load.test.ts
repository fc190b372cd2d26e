import { afterEach, describe, expect, it } from "vitest";
import { loadCatalog } from "@/lib/catalog/load";
import { brokenCatalog, catalogErrors, lineOf } from "@/test/catalog-copy";
import { readRenderedDiagram } from "./rendered";
import { dependencyFlowchart, DEPENDENCY_DIAGRAM_ID } from "@/lib/catalog/dependency-diagram";

const catalog = loadCatalog();
const SEED_TREES = [
  "sidecar-not-injected",
  "wrapper-fails-to-start",
  "secrets-not-in-memory",
  "protection-score-zero",
  "ebpf-agent-errors",
  "vault-auth-failing",
  "s3-proxy-encryption-errors",
];

describe("the shipped runbooks", () => {
  it("include all seven trees of seed 004 and the KMS trees", () => {
    const ids = catalog.runbooks.map((r) => r.id);
    for (const id of SEED_TREES) expect(ids).toContain(id);
    for (const id of [
      "kms-apiserver-wont-start",
      "kms-plugin-unhealthy",
      "openbao-sealed-or-unreachable",
      "transit-key-problems",
      "kms-auth-failing",
      "kms-decrypt-errors",
      "encryption-scope-migration",
    ]) {
      expect(ids).toContain(id);
    }
  });

  it("end, for every failure mode of seed 000, in a leaf that links to it", () => {
    const linkedFromLeaves = new Set(catalog.runbooks.flatMap((r) => r.nodes.filter((n) => n.next.length === 0).flatMap((n) => n.catalog)));
    const missing = catalog.entries.filter((e) => e.source.seed === "000" && !linkedFromLeaves.has(e.id)).map((e) => e.id);
    expect(missing).toEqual([]);
  });

  it("keep the seed trees' answers: sidecar-not-injected reaches the certificate fix through Yes, Yes, Yes, No", () => {
    const runbook = catalog.runbooks.find((r) => r.id === "sidecar-not-injected")!;
    const nodes = new Map(runbook.nodes.map((n) => [n.id, n]));
    let at = nodes.get(runbook.root)!;
    at = nodes.get(at.next[0].to)!;
    for (const answer of ["Yes", "Yes", "Yes", "No"]) at = nodes.get(at.next.find((n) => n.label === answer)!.to)!;
    expect(at.id).toBe("E1");
    expect(at.kind).toBe("action");
    expect(at.label).toMatch(/Restart operator to regenerate certs/);
  });

  it("have a pre-rendered diagram that is current and draws every node", () => {
    for (const runbook of catalog.runbooks) {
      const rendered = readRenderedDiagram(runbook.id, runbook.flowchart);
      expect(rendered.stale, `${runbook.id}: run npm run runbooks:render`).toBeUndefined();
      for (const node of runbook.nodes) expect(rendered.svg, `${runbook.id} ${node.id}`).toContain(`-flowchart-${node.id}-`);
      expect(rendered.svg).not.toMatch(/<script|javascript:|onclick=/i);
    }
    const deps = readRenderedDiagram(DEPENDENCY_DIAGRAM_ID, dependencyFlowchart(catalog.blastRadius, catalog.components));
    expect(deps.stale, "dependency diagram: run npm run runbooks:render").toBeUndefined();
  });
});

describe("catalog:check on a broken runbook", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());
  const FILE = "runbooks/sidecar-not-injected.yaml";

  it("rejects a cycle with the line of the edge that closes it", () => {
    const copy = brokenCatalog(FILE, (t) =>
      t.replace("  F -->|No| G[Check operator logs for errors]", "  F -->|No| G[Check operator logs for errors]\n  G --> B"),
    );
    cleanup = copy.cleanup;
    const line = lineOf(copy.root, FILE, "  G --> B");
    expect(catalogErrors(copy.root)).toContain(`catalog/${FILE}:${line}: sidecar-not-injected: cycle: G --> B leads back to a step already on the path`);
  });

  it("rejects a question with an unlabelled answer", () => {
    const copy = brokenCatalog(FILE, (t) => t.replace("C -->|No| C1", "C --> C1"));
    cleanup = copy.cleanup;
    const line = lineOf(copy.root, FILE, "C --> C1");
    expect(catalogErrors(copy.root)).toEqual([
      `catalog/${FILE}:${line}: sidecar-not-injected: answer C --> C1 of question C has no label; write C -->|Yes| C1`,
    ]);
  });

  it("rejects step details for a node that does not exist, and links that resolve nowhere", () => {
    const copy = brokenCatalog(FILE, (t) =>
      t.replace(/\n  E1:\n/, "\n  Z9:\n    text: A step nobody drew.\n  E1:\n").replace("catalog: [webhook-unreachable-ignore]", "catalog: [webhook-on-fire]"),
    );
    cleanup = copy.cleanup;
    const errors = catalogErrors(copy.root).join("\n");
    expect(errors).toContain(
      `catalog/${FILE}:${lineOf(copy.root, FILE, "  Z9:")}: sidecar-not-injected: steps.Z9 describes a node that is not in the flowchart`,
    );
    expect(errors).toContain('catalog entry "webhook-on-fire" does not exist');
  });
});
