import "server-only";
import { listBlastRadiusPagesFor } from "@/lib/catalog/blast-radius";
import { getCatalog, getComponentMap, getEntry, getSignalMap, listRelated } from "@/lib/catalog/queries";
import { listRunbookLinksTo } from "@/lib/catalog/runbooks";

// /catalog/{id}: the entry with what it links to: its components and signals by name, the runbook steps
// that cite it, the blast-radius pages that name it, related entries, and the error classes its diagnosis weighs
// (by title, with one real example each).

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
    errorClasses: errorClassesOf(entry),
    explains: explainedBy(entry),
  };
}

/** The failure modes whose symptoms this one causes (`diagnosis.explains`), by title: the page says what it accounts for. */
function explainedBy(entry: NonNullable<ReturnType<typeof getEntry>>): { id: string; title: string }[] {
  if (entry.kind !== "failure-mode" || !entry.diagnosis) return [];
  return entry.diagnosis.explains.flatMap((id) => {
    const other = getEntry(id);
    return other ? [{ id, title: other.title }] : [];
  });
}

function errorClassesOf(entry: NonNullable<ReturnType<typeof getEntry>>): Map<string, { title: string; example: string; from: string }> {
  const named =
    entry.kind === "failure-mode" && entry.diagnosis
      ? new Set([...entry.diagnosis.supports, ...entry.diagnosis.hints, ...entry.diagnosis.contradicts])
      : new Set();
  return new Map(
    getCatalog()
      .errorClasses.filter((c) => named.has(c.id))
      .map((c) => [c.id, { title: c.title, example: c.examples[0].text, from: c.examples[0].from }]),
  );
}
