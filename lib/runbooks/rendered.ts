import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// Diagrams are rendered by Mermaid (securityLevel strict) in Chromium ahead of time
// (npm run runbooks:render) and kept beside the content, stamped with the hash of their source.

export const RENDER_DIR = path.join(process.cwd(), "catalog", "runbooks", "rendered");
export const RENDER_ID = "runbook";
/** Bump when the Mermaid settings of scripts/render-runbooks.ts change, so every diagram is redrawn. */
export const RENDER_STYLE = 2;

export function flowchartHash(flowchart: string): string {
  return createHash("sha256").update(flowchart).digest("hex").slice(0, 16);
}

export function stampFor(flowchart: string, mermaidVersion: string): string {
  return `<!-- faultline-runbook source=${flowchartHash(flowchart)} mermaid=${mermaidVersion} style=${RENDER_STYLE} -->`;
}

export interface RenderedDiagram {
  svg?: string;
  /** Why there is no current rendering, when there is none. */
  stale?: "missing" | "outdated";
}

export function readRenderedDiagram(id: string, flowchart: string, dir = RENDER_DIR): RenderedDiagram {
  const file = path.join(/*turbopackIgnore: true*/ dir, `${id}.svg`);
  if (!existsSync(file)) return { stale: "missing" };
  const text = readFileSync(file, "utf8");
  const stamp = /^<!-- faultline-runbook source=([0-9a-f]+) /.exec(text);
  if (!stamp || stamp[1] !== flowchartHash(flowchart)) return { stale: "outdated" };
  return { svg: text.slice(text.indexOf("-->") + 3).trim() };
}
