import "server-only";
import { z } from "zod";
import { NotFound } from "@/lib/errors";
import { filterCatalog, parseCatalogQuery } from "./filter";
import { getCatalog, getEntry } from "./queries";

// The catalog as the API serves it: filtered like the page, one entry, a JSON 404 for an unknown id.

/** The URL's search parameters as a catalog query; an unknown or repeated parameter is a field error. */
export const CatalogSearch = z.instanceof(URLSearchParams).transform((params, ctx) => {
  const { query, errors } = parseCatalogQuery(params);
  if (query) return query;
  for (const [field, messages] of Object.entries(errors ?? {})) for (const message of messages) ctx.addIssue({ code: "custom", message, path: [field] });
  return z.NEVER;
});

export function searchCatalog(query: z.infer<typeof CatalogSearch>) {
  const catalog = getCatalog();
  const entries = filterCatalog(catalog.entries, query);
  return { count: entries.length, total: catalog.entries.length, revision: catalog.hash, entries };
}

export function readCatalogEntry(id: string) {
  const entry = getEntry(id);
  if (!entry) throw new NotFound(`no catalog entry with id "${id}"`, { extra: { id } });
  return entry;
}
