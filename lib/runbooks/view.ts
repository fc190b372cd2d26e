import "server-only";
import { readRenderedDiagram } from "./rendered";

// What the runbook pages need beyond the runbook: the pre-rendered diagram.

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
