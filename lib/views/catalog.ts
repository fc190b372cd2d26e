import "server-only";
import { parseCatalogQuery, type CatalogQuery } from "@/lib/catalog/filter";
import { getCatalog } from "@/lib/catalog/queries";

// /catalog: every entry, and the filters the address asks for (refused ones listed, nothing filtered).

type SearchParams = Record<string, string | string[] | undefined>;

export function loadCatalogPage(raw: SearchParams) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) for (const v of [value ?? []].flat()) params.append(key, v);
  const { query, errors } = parseCatalogQuery(params);
  const catalog = getCatalog();
  return {
    /** Changes with the address, so the table starts over from the new filters. */
    search: params.toString(),
    errors,
    initial: query ?? ({} as CatalogQuery),
    entries: catalog.entries,
    components: catalog.components.map(({ id, name }) => ({ id, name })),
  };
}
