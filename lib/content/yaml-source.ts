import { readdirSync } from "node:fs";
import path from "node:path";
import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import type { z } from "zod";

// YAML parsing that keeps positions, so every content error can be reported as file:line.

export interface ContentIssue {
  file: string;
  line: number;
  message: string;
}

export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lineOf: (path: readonly PropertyKey[]) => number;
}

export function parseYamlSource(file: string, text: string): { source?: YamlSource; issues: ContentIssue[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const issues = doc.errors.map((error) => ({
    file,
    line: error.linePos?.[0].line ?? counter.linePos(error.pos[0]).line,
    message: error.message.split("\n")[0],
  }));
  if (issues.length > 0) return { issues };

  const lineOf = (path: readonly PropertyKey[]): number => {
    // Walk up until a node exists: a missing key is reported where its parent is.
    for (let depth = path.length; depth >= 0; depth--) {
      const parent = depth > 0 ? doc.getIn(path.slice(0, depth - 1) as unknown[], true) : undefined;
      // A map entry is reported on its key's line (the value of a block scalar starts below it).
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[depth - 1]);
        if (pair && isNode(pair.key) && pair.key.range) return counter.linePos(pair.key.range[0]).line;
      }
      const node = doc.getIn(path.slice(0, depth) as unknown[], true);
      if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
    }
    return 1;
  };
  return { source: { file, doc, lineOf }, issues: [] };
}

export function describePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");
}

/** Validates a parsed YAML document; on failure returns one issue per zod issue, each with its line. */
export function validateYaml<T>(source: YamlSource, schema: z.ZodType<T>): { value?: T; issues: ContentIssue[] } {
  return validateAt(source, schema, source.doc.toJS(), []);
}

/** Validates one part of a document (at `prefix`), so one bad entry does not hide its neighbours. */
export function validateAt<T>(source: YamlSource, schema: z.ZodType<T>, value: unknown, prefix: readonly PropertyKey[]): { value?: T; issues: ContentIssue[] } {
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data, issues: [] };
  const issues = result.error.issues.map((zodIssue) => {
    const issue = { ...zodIssue, path: [...prefix, ...zodIssue.path] };
    const where = describePath(issue.path);
    return {
      file: source.file,
      line: source.lineOf(issue.path),
      message: where ? `${where}: ${issue.message}` : issue.message,
    };
  });
  return { issues };
}

export function formatIssue(issue: ContentIssue): string {
  return `${issue.file}:${issue.line}: ${issue.message}`;
}

/** The YAML files of one content folder, sorted; none when the folder does not exist. */
export function listYamlFiles(dir: string, folder: string): string[] {
  try {
    return readdirSync(path.join(dir, folder))
      .filter((name) => /\.ya?ml$/.test(name))
      .sort();
  } catch {
    return [];
  }
}
