import { z } from "zod";
import { SIGNAL_ID, SLUG } from "@/lib/content/ids";
import { validateAt, validateYaml, type ContentIssue, type YamlSource } from "@/lib/content/yaml-source";

// catalog/alerts.yaml: the alerts people already run (the KMS plugin's own rules, OpenBao's telemetry, kube-apiserver's
// KMS metrics) mapped to the Faultline signal each restates and to the words the error classes read: what the rule
// reads, with the values of its cause labels quoted as the metric selector (docs/catalog-format.md).

const Prose = z.string().trim().min(3, "must say something (at least 3 characters)");
const Cell = z.string().trim().min(1, "must not be empty");
const LabelName = z.string().regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, "must be a Prometheus label name");
/** `{{name}}` in `reads`: where a cause label's value is quoted. */
const PLACEHOLDER = /\{\{([a-zA-Z_][a-zA-Z0-9_]*)\}\}/g;

export const AlertCauseInput = z.strictObject({
  /** Values the exporter writes that name a failure mode: each must add an error class to what `reads` says. */
  values: z.array(Cell).default([]),
  /** Values it writes that name none by themselves ("error", "unknown", a method name): known words, no class. */
  unclassified: z.array(Cell).default([]),
  /** Where the values come from: repository, path and commit of the code that writes them. */
  from: Prose,
});
export type AlertCause = z.infer<typeof AlertCauseInput>;

export const AlertEntryInput = z.strictObject({
  id: z.string().regex(SLUG, "must be a lowercase slug (letters, digits, single hyphens)"),
  /** The alert names people give the rule (the value of its alertname label). */
  alerts: z.array(Cell).min(1, "name at least one alert"),
  /** The rule (repository, path and commit) or, for rules people write themselves, the metric's documentation. */
  from: Prose,
  /** The Faultline signal the alert restates; null when Faultline has no check for what it says. */
  signal: z.string().regex(SIGNAL_ID, "must be a signal id like kms.plugin.unhealthy").nullable(),
  /** What the rule reads, as a metric selector, with {{label}} where a cause label's value is quoted. */
  reads: Cell,
  /** The labels that carry the cause, and the values their exporter writes. */
  cause: z.record(LabelName, AlertCauseInput).default({}),
  /** Words of the rule's expression (Prometheus's generatorURL) that identify it when its name is not listed. */
  metrics: z.array(Cell).default([]),
  /** Error classes the alert says whatever its labels say: `reads` must show them. */
  classes: z.array(z.string().regex(SLUG)).default([]),
  note: Prose.optional(),
});
export type AlertEntry = z.infer<typeof AlertEntryInput>;

export const AlertsFileInput = z.array(z.unknown());

/** `reads` with each cause label's value quoted (a missing label reads as ""). */
export function fillReads(entry: Pick<AlertEntry, "reads">, labels: Record<string, string | undefined>): string {
  return entry.reads.replace(PLACEHOLDER, (_m, name: string) => (labels[name] ?? "").replace(/["\\]/g, "\\$&"));
}

const placeholdersOf = (reads: string) => [...reads.matchAll(PLACEHOLDER)].map((m) => m[1]);
/** An error class as far as checking this file needs it (lib/catalog/schema.ts has the whole one). */
type CompiledClass = { id: string; patterns: RegExp[] };
const classesIn = (text: string, classes: readonly CompiledClass[]) => new Set(classes.filter((c) => c.patterns.some((p) => p.test(text))).map((c) => c.id));

/**
 * Validates the alerts file: ids and alert names unique, signals and classes known, every cause label quoted in
 * `reads`, every listed value adding an error class and every unclassified one adding none, implied classes shown.
 */
export function readAlertCatalog(
  source: YamlSource | undefined,
  known: { signals: Set<string>; classes: readonly CompiledClass[] },
  issues: ContentIssue[],
): AlertEntry[] {
  if (!source) return [];
  const { value: raw, issues: found } = validateYaml(source, AlertsFileInput);
  issues.push(...found);
  const entries: AlertEntry[] = [];
  const ids = new Set<string>();
  const names = new Map<string, string>();
  const classIds = new Set(known.classes.map((c) => c.id));
  (raw ?? []).forEach((item, index) => {
    const { value: entry, issues: entryIssues } = validateAt(source, AlertEntryInput, item, [index]);
    issues.push(...entryIssues);
    if (!entry) return;
    const report = (path: (string | number)[], message: string) => issues.push({ file: source.file, line: source.lineOf([index, ...path]), message: `${entry.id}: ${message}` });
    if (ids.has(entry.id)) report(["id"], `duplicate alert entry id "${entry.id}"`);
    ids.add(entry.id);
    entry.alerts.forEach((name, j) => {
      const first = names.get(name);
      if (first) report(["alerts", j], `alert "${name}" is already mapped by ${first}`);
      else names.set(name, entry.id);
    });
    if (entry.signal && !known.signals.has(entry.signal)) report(["signal"], `unknown signal "${entry.signal}" (see catalog/signals.yaml)`);
    const quoted = new Set(placeholdersOf(entry.reads));
    for (const name of quoted) if (!entry.cause[name]) report(["reads"], `reads quotes {{${name}}}, which is not a cause label`);
    for (const name of Object.keys(entry.cause)) if (!quoted.has(name)) report(["cause", name], `cause label ${name} is not quoted in reads as {{${name}}}`);
    entry.classes.forEach((id, j) => {
      if (!classIds.has(id)) report(["classes", j], `unknown error class "${id}" (see catalog/error-classes.yaml)`);
      else if (!classesIn(fillReads(entry, {}), known.classes).has(id)) report(["classes", j], `reads does not show the class ${id} it implies`);
    });
    const bare = classesIn(fillReads(entry, {}), known.classes);
    for (const [name, cause] of Object.entries(entry.cause)) {
      const added = (value: string) => [...classesIn(fillReads(entry, { [name]: value }), known.classes)].filter((id) => !bare.has(id));
      cause.values.forEach((value, j) => {
        if (added(value).length === 0) report(["cause", name, "values", j], `${name}="${value}" adds no error class to what reads says (list it under unclassified, or add a class)`);
        if (cause.unclassified.includes(value)) report(["cause", name, "values", j], `${name}="${value}" is listed as classified and unclassified`);
      });
      cause.unclassified.forEach((value, j) => {
        const classes = added(value);
        if (classes.length > 0) report(["cause", name, "unclassified", j], `${name}="${value}" classifies as ${classes.join(", ")}: list it under values`);
      });
    }
    entries.push(entry);
  });
  return entries;
}
