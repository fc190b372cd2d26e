import "server-only";
import { listBlastRadiusPagesFor } from "@/lib/catalog/blast-radius";
import { getComponentMap, getEntry, getSignalMap, listRelated } from "@/lib/catalog/queries";
import { listRunbookLinksTo } from "@/lib/catalog/runbooks";

// /catalog/{id}: the entry with what it links to: its components and signals by name, the runbook steps
// that cite it, the blast-radius pages that name it, and related entries.

export type CatalogEntryPage = NonNullable<ReturnType<typeof loadCatalogEntryPage>>;

/** Undefined when no entry has this id (the page shows not-found). */
export function loadCatalogEntryPage(id: string) {
  const entry = getEntry(id);
  if (!entry) return undefined;
  return {
    entry,
    components: getComponentMap(),
    signals: getSignalMap(),
    related: listRelated(entry),
    runbookLinks: listRunbookLinksTo(entry.id),
    pages: listBlastRadiusPagesFor(entry),
  };
}
