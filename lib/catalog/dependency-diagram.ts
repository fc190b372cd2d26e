import type { Component } from "@/lib/catalog/schema";
import type { BlastRadiusPage } from "@/lib/blast-radius/schema";

// The overview's dependency diagram as Mermaid text: an arrow goes from a component to the one that
// breaks with it (the reverse of dependsOn), so failures read downstream.

export const DEPENDENCY_DIAGRAM_ID = "dependencies";

export function dependencyFlowchart(pages: BlastRadiusPage[], components: Component[]): string {
  const names = new Map(components.map((c) => [c.id, c.name]));
  const ids = new Set<string>();
  for (const page of pages) {
    if (page.dependsOn.length === 0 && !pages.some((p) => p.dependsOn.includes(page.id))) continue;
    ids.add(page.id);
    page.dependsOn.forEach((d) => ids.add(d));
  }
  const nodeId = (id: string) => id.replace(/[^A-Za-z0-9]/g, "_");
  const withPage = new Set(pages.map((p) => p.id));
  const lines = ["graph LR"];
  for (const id of [...ids].sort()) {
    const label = (names.get(id) ?? pages.find((p) => p.id === id)?.title ?? id).replace(/["[\]{}()|]/g, " ");
    lines.push(`${nodeId(id)}["${label}"]`);
  }
  for (const page of [...pages].sort((a, b) => a.id.localeCompare(b.id))) {
    for (const dependency of page.dependsOn) lines.push(`${nodeId(dependency)} --> ${nodeId(page.id)}`);
  }
  lines.push("classDef page fill:#1f4b73,stroke:#7cc4ff,color:#fff");
  const paged = [...ids].filter((id) => withPage.has(id)).map(nodeId);
  if (paged.length) lines.push(`class ${paged.join(",")} page`);
  return lines.join("\n");
}
