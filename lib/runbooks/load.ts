import path from "node:path";
import type { ContentIssue, YamlSource } from "@/lib/content/yaml-source";
import { listYamlFiles, validateYaml } from "@/lib/content/yaml-source";
import { parseFlowchart, plainLabel } from "./flowchart";
import { RunbookInput, type NodeKind, type Runbook } from "./schema";
import { checkTree, findRoot, outgoing } from "./tree";

export interface LinkTargets {
  entries: Set<string>;
  signals: Set<string>;
  components: Set<string>;
}

type ReadSource = (relative: string) => YamlSource | undefined;

/** Loads catalog/runbooks/*.yaml; pushes every problem as file:line into `issues`. */
export function loadRunbooks(dir: string, read: ReadSource, targets: LinkTargets, issues: ContentIssue[]): Runbook[] {
  const names = listYamlFiles(dir, "runbooks");
  const loaded: { runbook: Runbook; input: RunbookInput; source: YamlSource }[] = [];
  for (const name of names) {
    const source = read(path.join("runbooks", name));
    if (!source) continue;
    const { value: input, issues: schemaIssues } = validateYaml(source, RunbookInput);
    issues.push(...schemaIssues);
    if (!input) continue;
    const at = (p: PropertyKey[]) => source.lineOf(p);
    const report = (p: PropertyKey[], message: string) => issues.push({ file: source.file, line: at(p), message: `${input.id}: ${message}` });

    if (input.id !== name.replace(/\.ya?ml$/, "")) report(["id"], `id must match the file name (${name})`);
    // Flowchart lines count from the line after "flowchart: |".
    const base = at(["flowchart"]);
    const parsed = parseFlowchart(input.flowchart);
    for (const issue of parsed.issues) issues.push({ file: source.file, line: base + issue.line, message: `${input.id}: ${issue.message}` });
    if (!parsed.chart) continue;
    const chart = parsed.chart;
    const leafKinds = new Map(Object.entries(input.steps).map(([id, step]) => [id, step.kind]));
    for (const issue of checkTree({ chart, leafKinds })) issues.push({ file: source.file, line: base + issue.line, message: `${input.id}: ${issue.message}` });

    const nodeIds = new Set(chart.nodes.map((n) => n.id));
    for (const [id, step] of Object.entries(input.steps)) {
      if (!nodeIds.has(id)) {
        report(["steps", id], `steps.${id} describes a node that is not in the flowchart`);
        continue;
      }
      step.catalog.forEach((c, j) => targets.entries.has(c) || report(["steps", id, "catalog", j], `steps.${id}: catalog entry "${c}" does not exist`));
      if (step.signal && !targets.signals.has(step.signal)) report(["steps", id, "signal"], `steps.${id}: unknown signal "${step.signal}"`);
      if (step.kind && outgoing(chart, id).length > 0) report(["steps", id, "kind"], `steps.${id}: only a leaf is an ${step.kind}; this node has a way on`);
    }
    input.components.forEach((c, j) => targets.components.has(c) || report(["components", j], `unknown component "${c}"`));

    const root = findRoot(chart)?.id ?? chart.nodes[0]?.id ?? "";
    const kindOf = (id: string, shape: string): NodeKind => {
      const declared = input.steps[id]?.kind;
      if (declared) return declared;
      if (id === root) return "start";
      return shape === "question" ? "question" : "step";
    };
    const runbook: Runbook = {
      id: input.id,
      title: input.title,
      symptom: input.symptom,
      components: input.components,
      source: { ...input.source, file: source.file, line: 1 },
      quickChecks: input.quickChecks,
      flowchart: input.flowchart,
      chart,
      root,
      nodes: chart.nodes.map((node) => {
        const step = input.steps[node.id];
        return {
          id: node.id,
          kind: kindOf(node.id, node.shape),
          label: plainLabel(node.label),
          text: step?.text,
          commands: step?.commands ?? [],
          expect: step?.expect,
          signal: step?.signal,
          catalog: step?.catalog ?? [],
          runbooks: step?.runbooks ?? [],
          next: outgoing(chart, node.id).map((e) => ({ ...(e.label ? { label: e.label } : {}), to: e.to })),
        };
      }),
    };
    loaded.push({ runbook, input, source });
  }

  // Links between runbooks resolve once all are known.
  const ids = new Set(loaded.map((l) => l.runbook.id));
  for (const { input, source } of loaded) {
    for (const [id, step] of Object.entries(input.steps)) {
      step.runbooks.forEach((r, j) => {
        if (!ids.has(r))
          issues.push({
            file: source.file,
            line: source.lineOf(["steps", id, "runbooks", j]),
            message: `${input.id}: steps.${id}: runbook "${r}" does not exist`,
          });
      });
    }
  }
  const seen = new Map<string, string>();
  for (const { runbook, source } of loaded) {
    if (seen.has(runbook.id))
      issues.push({ file: source.file, line: source.lineOf(["id"]), message: `duplicate runbook id "${runbook.id}" (also in ${seen.get(runbook.id)})` });
    seen.set(runbook.id, source.file);
  }
  return loaded.map((l) => l.runbook);
}
