import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  CatalogFileInput,
  ComponentsFileInput,
  EntryInput,
  SignalDefinitionsFileInput,
  type Catalog,
  type CatalogEntry,
  type Component,
  type SignalDefinition,
} from "./schema";
import { checkDiagnosisLinks, checkExitLinks, readErrorClasses } from "./error-classes";
import { readAlertCatalog } from "./alert-catalog";
import { readRootCauses } from "./root-causes";
import { loadBlastRadius } from "@/lib/blast-radius/load";
import { loadRunbooks } from "@/lib/runbooks/load";
import { formatIssue, parseYamlSource, validateAt, validateYaml, type ContentIssue, type YamlSource } from "@/lib/content/yaml-source";

export const CATALOG_DIR = path.join(process.cwd(), "catalog");

export class CatalogError extends Error {
  constructor(readonly issues: ContentIssue[]) {
    super(`catalog is invalid (${issues.length} error${issues.length === 1 ? "" : "s"}):\n${issues.map(formatIssue).join("\n")}`);
  }
}

function readSource(dir: string, relative: string, issues: ContentIssue[], texts: string[]): YamlSource | undefined {
  const file = path.join(dir, relative);
  const shown = path.join("catalog", relative);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    issues.push({ file: shown, line: 1, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
    return undefined;
  }
  texts.push(`${relative}\n${text}`);
  const parsed = parseYamlSource(shown, text);
  issues.push(...parsed.issues);
  return parsed.source;
}

/** Reads and validates catalog/; throws CatalogError listing every problem as file:line. */
export function loadCatalog(dir = CATALOG_DIR): Catalog {
  const issues: ContentIssue[] = [];
  const texts: string[] = [];

  const componentsSource = readSource(dir, "components.yaml", issues, texts);
  const componentsResult = componentsSource ? validateYaml(componentsSource, ComponentsFileInput) : { value: [], issues: [] };
  issues.push(...componentsResult.issues);
  const components: Component[] = componentsResult.value ?? [];

  const signalsSource = readSource(dir, "signals.yaml", issues, texts);
  const signalsResult = signalsSource ? validateYaml(signalsSource, SignalDefinitionsFileInput) : { value: [], issues: [] };
  issues.push(...signalsResult.issues);
  const signals: SignalDefinition[] = signalsResult.value ?? [];

  const classesSource = readSource(dir, "error-classes.yaml", issues, texts);
  const errorClasses = readErrorClasses(classesSource, issues);

  const componentIds = new Set(components.map((c) => c.id));
  const signalIds = new Set(signals.map((s) => s.id));
  const alerts = readAlertCatalog(readSource(dir, "alerts.yaml", issues, texts), { signals: signalIds, classes: errorClasses }, issues);
  checkUnique(componentsSource, components, "component", issues);
  checkUnique(signalsSource, signals, "signal", issues);
  signals.forEach((signal, index) =>
    signal.components.forEach((component, j) => {
      if (!componentIds.has(component) && signalsSource) {
        issues.push({ file: signalsSource.file, line: signalsSource.lineOf([index, "components", j]), message: `unknown component "${component}"` });
      }
    }),
  );

  let fileNames: string[] = [];
  try {
    fileNames = readdirSync(path.join(dir, "failure-modes")).filter((name) => /\.ya?ml$/.test(name)).sort();
  } catch {
    issues.push({ file: "catalog/failure-modes", line: 1, message: "folder missing" });
  }

  const entries: CatalogEntry[] = [];
  const where = new Map<string, { source: YamlSource; index: number }>();
  // Ids of entries that exist but failed validation: links to them are not reported as dangling.
  const brokenIds = new Set<string>();
  for (const name of fileNames) {
    const source = readSource(dir, path.join("failure-modes", name), issues, texts);
    if (!source) continue;
    const { value: file, issues: fileIssues } = validateYaml(source, CatalogFileInput);
    issues.push(...fileIssues);
    if (!file) continue;
    file.entries.forEach((raw, index) => {
      const { value: entry, issues: entryIssues } = validateAt(source, EntryInput, raw, ["entries", index]);
      issues.push(...entryIssues);
      if (!entry) {
        const id = (raw as { id?: unknown } | null)?.id;
        if (typeof id === "string") brokenIds.add(id);
        return;
      }
      const previous = where.get(entry.id);
      if (previous) {
        issues.push({
          file: source.file,
          line: source.lineOf(["entries", index, "id"]),
          message: `duplicate id "${entry.id}" (first at ${previous.source.file}:${previous.source.lineOf(["entries", previous.index, "id"])})`,
        });
        return;
      }
      where.set(entry.id, { source, index });
      const line = source.lineOf(["entries", index]);
      entries.push({ ...entry, category: file.category, source: { ...file.source, file: source.file, line } } as CatalogEntry);
    });
  }

  const entryIds = new Set(entries.map((e) => e.id));
  const read = (relative: string) => readSource(dir, relative, issues, texts);
  const runbooks = loadRunbooks(dir, read, { entries: new Set([...entryIds, ...brokenIds]), signals: signalIds, components: componentIds }, issues);
  const runbookIds = new Set(runbooks.map((r) => r.id));
  const blastRadius = loadBlastRadius(dir, read, { entries: new Set([...entryIds, ...brokenIds]), runbooks: runbookIds, components: componentIds }, issues);
  const pageIds = new Set(blastRadius.map((p) => p.id));
  for (const entry of entries) {
    const { source, index } = where.get(entry.id)!;
    const at = (field: string, j: number) => source.lineOf(["entries", index, field, j]);
    const report = (field: string, j: number, message: string) => issues.push({ file: source.file, line: at(field, j), message: `${entry.id}: ${message}` });
    entry.components.forEach((c, j) => componentIds.has(c) || report("components", j, `unknown component "${c}" (see catalog/components.yaml)`));
    entry.related.forEach((r, j) => {
      if (r === entry.id) report("related", j, "an entry cannot be related to itself");
      else if (!entryIds.has(r) && !brokenIds.has(r)) report("related", j, `related entry "${r}" does not exist`);
    });
    entry.blastRadius.forEach((b, j) => pageIds.has(b) || report("blastRadius", j, `blast-radius page "${b}" does not exist`));
    entry.runbooks.forEach((r, j) => runbookIds.has(r) || report("runbooks", j, `runbook "${r}" does not exist`));
    if (entry.kind === "failure-mode") {
      entry.signals.forEach((s, j) => signalIds.has(s) || report("signals", j, `unknown signal "${s}" (see catalog/signals.yaml)`));
    }
  }

  checkDiagnosisLinks(
    entries,
    { classes: new Set(errorClasses.map((c) => c.id)), signals: signalIds, entries: entryIds },
    (entry, field, j) => {
      const { source, index } = where.get(entry.id)!;
      return { file: source.file, line: source.lineOf(["entries", index, "diagnosis", field, j]) };
    },
    issues,
  );

  const modeIds = new Set(entries.filter((e) => e.kind === "failure-mode").map((e) => e.id));
  checkExitLinks(classesSource, errorClasses, modeIds, issues);
  const rootCauses = readRootCauses(readSource(dir, "root-causes.yaml", issues, texts), new Set([...modeIds, ...brokenIds]), issues);

  if (issues.length > 0) throw new CatalogError(issues);
  const hash = createHash("sha256").update(texts.join("\n\0")).digest("hex");
  return { entries, signals, components, errorClasses, alerts, rootCauses, runbooks, blastRadius, hash };
}

function checkUnique(source: YamlSource | undefined, items: { id: string }[], what: string, issues: ContentIssue[]): void {
  if (!source) return;
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id)) issues.push({ file: source.file, line: source.lineOf([index, "id"]), message: `duplicate ${what} id "${item.id}"` });
    seen.add(item.id);
  });
}
