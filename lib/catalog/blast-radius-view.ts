import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import type { CatalogEntry, FailureMode } from "@/lib/catalog/schema";
import { getDiagramSvg } from "@/lib/runbooks/view";
import { dependencyFlowchart, DEPENDENCY_DIAGRAM_ID } from "./dependency-diagram";

export function getDependencyDiagram(): { svg: string | null; flowchart: string } {
  const { blastRadius, components } = getCatalog();
  const flowchart = dependencyFlowchart(blastRadius, components);
  return { svg: getDiagramSvg(DEPENDENCY_DIAGRAM_ID, flowchart), flowchart };
}

export interface SeveritySummary {
  blocksStartup: FailureMode[];
  partlyBlocksStartup: FailureMode[];
  losesData: FailureMode[];
  confidentiality: FailureMode[];
  total: number;
}

/** The KMS plugin page's summary, computed from the catalog so it never drifts from it. */
export function summariseKmsFailures(): SeveritySummary {
  const modes = getCatalog().entries.filter((e): e is FailureMode => e.kind === "failure-mode" && e.source.seed === "000");
  return {
    blocksStartup: modes.filter((e) => e.startupBlock.level === "yes"),
    partlyBlocksStartup: modes.filter((e) => e.startupBlock.level === "possible" || e.startupBlock.level === "affected-data"),
    losesData: modes.filter((e) => e.dataLoss.level === "yes" || e.dataLoss.level === "possible"),
    confidentiality: modes.filter((e) => e.dataLoss.level === "confidentiality-loss"),
    total: modes.length,
  };
}

export function entriesForComponent(id: string): CatalogEntry[] {
  return getCatalog().entries.filter((e) => e.components.includes(id));
}

/** Components whose pages list this one in dependsOn. */
export function dependents(id: string) {
  return getCatalog().blastRadius.filter((p) => p.dependsOn.includes(id));
}
