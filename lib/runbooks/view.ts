import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import { readRenderedDiagram } from "./rendered";
import type { Runbook } from "./schema";

// What the runbook pages need beyond the runbook: titles for links, and the pre-rendered diagram.

const diagrams = new Map<string, string | null>();

export function getDiagramSvg(runbook: Runbook): string | null {
  if (!diagrams.has(runbook.id)) {
    const rendered = readRenderedDiagram(runbook.id, runbook.flowchart);
    if (rendered.stale) console.warn(`[faultline] runbook ${runbook.id}: pre-rendered diagram ${rendered.stale}; drawing it in the browser (run npm run runbooks:render)`);
    diagrams.set(runbook.id, rendered.svg ?? null);
  }
  return diagrams.get(runbook.id)!;
}

export function titleMaps(): { catalogTitles: Record<string, string>; runbookTitles: Record<string, string> } {
  const catalog = getCatalog();
  return {
    catalogTitles: Object.fromEntries(catalog.entries.map((e) => [e.id, e.title])),
    runbookTitles: Object.fromEntries(catalog.runbooks.map((r) => [r.id, r.title])),
  };
}
