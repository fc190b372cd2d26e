import "server-only";
import { getComponentMap } from "@/lib/catalog/queries";
import { getBlastRadiusPage, listBlastRadiusPages } from "@/lib/catalog/blast-radius";
import { BACKOUT_ID } from "@/lib/blast-radius/schema";
import { dependents, entriesForComponent, getDependencyDiagram, summariseKmsFailures } from "@/lib/catalog/blast-radius-view";
import { titleMaps } from "@/lib/catalog/queries";

// The blast-radius pages: the overview (every component, the diagram, the backout) and one component's page.

export function loadBlastRadiusOverview() {
  const pages = listBlastRadiusPages();
  return {
    pageIds: pages.map((p) => p.id),
    components: pages.filter((p) => p.id !== BACKOUT_ID),
    backout: pages.find((p) => p.id === BACKOUT_ID),
    svg: getDependencyDiagram().svg,
  };
}

/** Undefined when no component has a page under this id. */
export function loadBlastRadiusPage(id: string) {
  const page = getBlastRadiusPage(id);
  if (!page) return undefined;
  const components = getComponentMap();
  return {
    page,
    dependsOn: page.dependsOn.map((c) => ({ id: c, name: components.get(c)?.name ?? c, hasPage: Boolean(getBlastRadiusPage(c)) })),
    neededBy: dependents(page.id).map((p) => ({ id: p.id, name: p.title, hasPage: true })),
    entryCount: entriesForComponent(page.id).length,
    /** The KMS plugin's page also shows which of its failures block start-up or risk data. */
    kmsSummary: page.id === "kms-plugin" ? summariseKmsFailures() : undefined,
    ...titleMaps(),
  };
}
