import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import type { CatalogEntry } from "@/lib/catalog/schema";
import type { BlastRadiusPage } from "@/lib/blast-radius/schema";

export function listBlastRadiusPages(): BlastRadiusPage[] {
  return getCatalog().blastRadius;
}

export function getBlastRadiusPage(id: string): BlastRadiusPage | undefined {
  return listBlastRadiusPages().find((p) => p.id === id);
}

/** The pages of an entry's components, plus any it names itself, plus pages whose rows link to it. */
export function listBlastRadiusPagesFor(entry: CatalogEntry): BlastRadiusPage[] {
  return listBlastRadiusPages().filter(
    (page) =>
      entry.components.includes(page.id) ||
      entry.blastRadius.includes(page.id) ||
      page.sections.some(
        (s) => s.matrix?.rows.some((r) => r.catalog.includes(entry.id)) || s.scenarios?.some((r) => r.catalog.includes(entry.id)),
      ),
  );
}
