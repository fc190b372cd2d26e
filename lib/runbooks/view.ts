import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import { readRenderedDiagram } from "./rendered";

// What the runbook pages need beyond the runbook: titles for links, and the pre-rendered diagram.

const diagrams = new Map<string, string | null>();

/** A pre-rendered diagram (runbook or dependency graph), read from disk once per process. */
export function getDiagramSvg(id: string, flowchart: string): string | null {
  if (!diagrams.has(id)) {
    const rendered = readRenderedDiagram(id, flowchart);
    if (rendered.stale) console.warn(`[faultline] diagram ${id}: pre-rendered SVG ${rendered.stale}; drawing it in the browser (run npm run runbooks:render)`);
    diagrams.set(id, rendered.svg ?? null);
  }
  return diagrams.get(id)!;
}

export function titleMaps(): { catalogTitles: Record<string, string>; runbookTitles: Record<string, string> } {
  const catalog = getCatalog();
  return {
    catalogTitles: Object.fromEntries(catalog.entries.map((e) => [e.id, e.title])),
    runbookTitles: Object.fromEntries(catalog.runbooks.map((r) => [r.id, r.title])),
  };
}
