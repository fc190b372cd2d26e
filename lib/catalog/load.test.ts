import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SEED_ROWS } from "@/test/seed-rows";
import { brokenCatalog, catalogErrors, lineOf } from "@/test/catalog-copy";
import { loadCatalog } from "./load";

describe("the shipped catalog", () => {
  const catalog = loadCatalog();

  it("has every row of every seed table, none dropped and none extra", () => {
    for (const table of SEED_ROWS) {
      const entries = catalog.entries.filter((e) => e.source.seed === table.seed && e.source.table === table.table);
      expect(entries.map((e) => e.sourceRow).sort(), `${table.seed} ${table.table}`).toEqual([...table.rows].sort());
      expect(entries.every((e) => e.kind === table.kind)).toBe(true);
    }
    const listed = SEED_ROWS.reduce((n, t) => n + t.rows.length, 0);
    expect(catalog.entries).toHaveLength(listed);
  });

  it("counts entries per seed table as the sources have them", () => {
    const count = (seed: string, table: string) =>
      catalog.entries.filter((e) => e.source.seed === seed && e.source.table === table).length;
    expect(count("000", "Bootstrap and Runtime")).toBe(11);
    expect(count("000", "OpenBao and Transit")).toBe(7);
    expect(count("000", "Transit Key Material")).toBe(5);
    expect(count("000", "Authentication and Issuer State")).toBe(13);
    expect(count("000", "KMS Contract, Registry, and Decrypt")).toBe(10);
    expect(count("000", "Kubernetes Encryption Scope and Migration")).toBe(5);
    expect(count("001", "Table 14: Failure Modes")).toBe(6);
    expect(count("001", "Table 15: Acceptance Tests")).toBe(9);
    expect(catalog.entries.filter((e) => e.source.seed === "000")).toHaveLength(51);
  });

  it("has the secret-protection scenarios of seed 002 under their public ids", () => {
    const ids = new Set(catalog.entries.map((e) => e.id));
    for (const id of [
      "webhook-unreachable-ignore", "webhook-unreachable-fail", "wrapper-crash-once", "wrapper-crash-loop",
      "wrapper-blocked-on-openbao", "wrapper-killed-by-ebpf", "ebpf-image-compromised", "beacon-down",
      "bridge-down", "stack-openbao-down", "operator-down",
    ]) expect(ids, id).toContain(id);
  });

  it("keeps the seed's qualifier next to every severity level", () => {
    const deleted = catalog.entries.find((e) => e.id === "transit-key-deleted");
    expect(deleted?.kind === "failure-mode" && deleted.dataLoss).toEqual({ level: "yes", seed: "Yes if no valid backup" });
    const unavailable = catalog.entries.find((e) => e.id === "openbao-unavailable");
    expect(unavailable?.kind === "failure-mode" && unavailable.startupBlock).toEqual({ level: "affected-data", seed: "Yes for encrypted data" });
  });

  it("points every entry at the line where it is defined", () => {
    const entry = catalog.entries.find((e) => e.id === "openbao-sealed")!;
    const lines = readFileSync(path.join(process.cwd(), entry.source.file), "utf8").split("\n");
    expect(lines[entry.source.line - 1]).toContain("id: openbao-sealed");
  });
});

describe("a broken catalog", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  /** A copy of the real catalog with one file's text changed; returns its folder. */
  function brokenCopy(file: string, edit: (text: string) => string): string {
    const copy = brokenCatalog(file, edit);
    cleanup = copy.cleanup;
    return copy.root;
  }
  const errorsFor = catalogErrors;

  const FILE = "failure-modes/openbao-transit.yaml";

  it("names file and line of an unknown severity level", () => {
    const root = brokenCopy(FILE, (t) => t.replace('level: affected-data', 'level: sometimes'));
    const line = lineOf(root, FILE, "level: sometimes");
    expect(errorsFor(root)).toEqual([
      expect.stringMatching(new RegExp(`^catalog/${FILE}:${line}: entries\\[0\\]\\.startupBlock\\.level: `)),
    ]);
  });

  it("names the entry line when a required field is missing", () => {
    const root = brokenCopy(FILE, (t) => t.replace(/\n    recovery: >-\n      Restore the plugin's ability to reach OpenBao\.\n/, "\n"));
    const line = lineOf(root, FILE, "- id: openbao-unavailable");
    const errors = errorsFor(root);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^catalog/${FILE}:${line}: entries\\[0\\]\\.recovery: `));
  });

  it("rejects a YAML syntax error with its line", () => {
    const root = brokenCopy(FILE, (t) => t.replace("title: OpenBao sealed", "title: [OpenBao sealed"));
    const errors = errorsFor(root);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatch(new RegExp(`^catalog/${FILE}:\\d+: `));
  });

  it("rejects a duplicate id and says where the first one is", () => {
    const root = brokenCopy(FILE, (t) => t.replace("- id: openbao-sealed", "- id: openbao-unavailable"));
    const line = lineOf(root, FILE, "- id: openbao-unavailable");
    const errors = errorsFor(root);
    expect(errors).toContainEqual(expect.stringContaining(`duplicate id "openbao-unavailable" (first at catalog/${FILE}:${line})`));
  });

  it("rejects links to signals, entries and components that do not exist", () => {
    const root = brokenCopy(FILE, (t) =>
      t
        .replace("signals: [openbao.unreachable,", "signals: [openbao.exploded,")
        .replace("related: [openbao-sealed,", "related: [openbao-on-fire,")
        .replace("components: [openbao, kms-plugin]", "components: [openbao, toaster]"),
    );
    const errors = errorsFor(root).join("\n");
    expect(errors).toContain('unknown signal "openbao.exploded"');
    expect(errors).toContain('related entry "openbao-on-fire" does not exist');
    expect(errors).toContain('unknown component "toaster"');
    expect(errors).toMatch(new RegExp(`catalog/${FILE}:${lineOf(root, FILE, "openbao.exploded")}: openbao-unavailable: unknown signal`));
  });

  it("rejects an error class whose exit shows as a failure mode the catalog does not have, at its line", () => {
    const root = brokenCopy("error-classes.yaml", (t) => t.replace("exitShowsAs: [kms-plugin-unavailable,", "exitShowsAs: [kms-plugin-on-fire,"));
    expect(errorsFor(root)).toEqual([
      `catalog/error-classes.yaml:${lineOf(root, "error-classes.yaml", "kms-plugin-on-fire")}: config-invalid: exitShowsAs: unknown failure mode "kms-plugin-on-fire"`,
    ]);
  });

  it("rejects a misspelt field instead of ignoring it", () => {
    const root = brokenCopy(FILE, (t) => t.replace("    impact: >-", "    impcat: >-"));
    const errors = errorsFor(root).join("\n");
    expect(errors).toContain("impcat");
    expect(errors).toContain("impact");
  });
});
