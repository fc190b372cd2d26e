import path from "node:path";
import type { ContentIssue, YamlSource } from "@/lib/content/yaml-source";
import { listYamlFiles, validateYaml } from "@/lib/content/yaml-source";
import { BACKOUT_ID, BlastRadiusInput, type BlastRadiusPage } from "./schema";

export interface BlastRadiusTargets {
  entries: Set<string>;
  runbooks: Set<string>;
  components: Set<string>;
}

type ReadSource = (relative: string) => YamlSource | undefined;

/** Loads catalog/blast-radius/*.yaml; every scenario row must link somewhere that exists. */
export function loadBlastRadius(dir: string, read: ReadSource, targets: BlastRadiusTargets, issues: ContentIssue[]): BlastRadiusPage[] {
  const names = listYamlFiles(dir, "blast-radius");
  const pages: BlastRadiusPage[] = [];
  for (const name of names) {
    const source = read(path.join("blast-radius", name));
    if (!source) continue;
    const { value: page, issues: schemaIssues } = validateYaml(source, BlastRadiusInput);
    issues.push(...schemaIssues);
    if (!page) continue;
    const report = (p: PropertyKey[], message: string) => issues.push({ file: source.file, line: source.lineOf(p), message: `${page.id}: ${message}` });
    if (page.id !== name.replace(/\.ya?ml$/, "")) report(["id"], `id must match the file name (${name})`);
    if (page.id !== BACKOUT_ID && !targets.components.has(page.id))
      report(["id"], `"${page.id}" is not a component id (catalog/components.yaml) nor "${BACKOUT_ID}"`);
    page.dependsOn.forEach((c, j) => targets.components.has(c) || report(["dependsOn", j], `unknown component "${c}"`));

    const checkLinks = (at: PropertyKey[], row: { catalog: string[]; runbooks: string[] }, what: string) => {
      if (row.catalog.length + row.runbooks.length === 0) report(at, `${what} links nowhere: give it a catalog entry or a runbook`);
      row.catalog.forEach((c, j) => targets.entries.has(c) || report([...at, "catalog", j], `catalog entry "${c}" does not exist`));
      row.runbooks.forEach((r, j) => targets.runbooks.has(r) || report([...at, "runbooks", j], `runbook "${r}" does not exist`));
    };
    page.sections.forEach((section, s) => {
      section.matrix?.rows.forEach((row, r) => {
        const at = ["sections", s, "matrix", "rows", r];
        if (row.cells.length !== section.matrix!.columns.length) {
          report([...at, "cells"], `row has ${row.cells.length} cells for ${section.matrix!.columns.length} columns`);
        }
        checkLinks(at, row, `matrix row "${row.cells[0]}"`);
      });
      section.scenarios?.forEach((row, r) => checkLinks(["sections", s, "scenarios", r], row, `scenario "${row.scenario}"`));
    });
    pages.push({ ...page, file: source.file });
  }
  return pages;
}
