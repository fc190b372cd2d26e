import { ErrorClassesFileInput, type CatalogEntry, type ErrorClass } from "./schema";
import { validateYaml, type ContentIssue, type YamlSource } from "@/lib/content/yaml-source";

// catalog/error-classes.yaml: the typed error classes the diagnosis recognises in what a cluster says, each
// written from real error strings. Checked here: patterns compile, examples match their own class, and the
// failure modes' diagnosis blocks name classes, signals and entries that exist.

/** Validates the classes file and compiles its patterns; problems go to `issues` as file:line. */
export function readErrorClasses(source: YamlSource | undefined, issues: ContentIssue[]): ErrorClass[] {
  if (!source) return [];
  const { value, issues: found } = validateYaml(source, ErrorClassesFileInput);
  issues.push(...found);
  const classes: ErrorClass[] = [];
  const seen = new Set<string>();
  (value ?? []).forEach((input, index) => {
    const report = (path: (string | number)[], message: string) => issues.push({ file: source.file, line: source.lineOf([index, ...path]), message });
    if (seen.has(input.id)) report(["id"], `duplicate error class id "${input.id}"`);
    seen.add(input.id);
    const patterns: RegExp[] = [];
    input.match.forEach((pattern, j) => {
      try {
        patterns.push(new RegExp(pattern, "i"));
      } catch (error) {
        report(["match", j], `${input.id}: pattern does not compile: ${(error as Error).message}`);
      }
    });
    if (patterns.length !== input.match.length) return;
    input.examples.forEach((example, j) => {
      if (!patterns.some((p) => p.test(example.text))) report(["examples", j, "text"], `${input.id}: example does not match the class's own patterns`);
    });
    input.notMatch.forEach((text, j) => {
      if (patterns.some((p) => p.test(text))) report(["notMatch", j], `${input.id}: matches a text it must not match`);
    });
    classes.push({ ...input, patterns });
  });
  return classes;
}

/** Reports a class whose exit shows as a failure mode the catalog does not have (`source` is the classes file, in order). */
export function checkExitLinks(source: YamlSource | undefined, classes: ErrorClass[], modes: ReadonlySet<string>, issues: ContentIssue[]): void {
  if (!source) return;
  classes.forEach((c, index) =>
    c.exitShowsAs.forEach(
      (id, j) =>
        modes.has(id) ||
        issues.push({ file: source.file, line: source.lineOf([index, "exitShowsAs", j]), message: `${c.id}: exitShowsAs: unknown failure mode "${id}"` }),
    ),
  );
}

/** Reports diagnosis blocks that name an unknown class, signal or entry. */
export function checkDiagnosisLinks(
  entries: CatalogEntry[],
  known: { classes: Set<string>; signals: Set<string>; entries: Set<string> },
  at: (entry: CatalogEntry, field: string, j: number) => { file: string; line: number },
  issues: ContentIssue[],
): void {
  for (const entry of entries) {
    if (entry.kind !== "failure-mode" || !entry.diagnosis) continue;
    const d = entry.diagnosis;
    const check = (field: "supports" | "hints" | "contradicts" | "needs" | "explains", ids: string[], set: Set<string>, what: string) =>
      ids.forEach((id, j) => set.has(id) || issues.push({ ...at(entry, field, j), message: `${entry.id}: diagnosis.${field}: unknown ${what} "${id}"` }));
    check("supports", d.supports, known.classes, "error class (see catalog/error-classes.yaml)");
    check("hints", d.hints, known.classes, "error class (see catalog/error-classes.yaml)");
    check("contradicts", d.contradicts, known.classes, "error class (see catalog/error-classes.yaml)");
    check("needs", d.needs, known.signals, "signal (see catalog/signals.yaml)");
    check("explains", d.explains, known.entries, "catalog entry");
  }
}
