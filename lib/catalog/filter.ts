import MiniSearch from "minisearch";
import { z } from "zod";
import { CATEGORIES, DATA_LOSS_LEVELS, STARTUP_LEVELS, type CatalogEntry } from "./schema";

// Filters and full-text search over catalog entries. Pure: the API, the server-rendered page and
// the browser all use this module, so a shared URL means the same rows everywhere.

const list = <T extends string>(values: readonly [T, ...T[]], name: string) =>
  z
    .string()
    .transform((raw) => raw.split(",").map((v) => v.trim()).filter(Boolean))
    .pipe(z.array(z.enum(values, { message: `${name} must be one of: ${values.join(", ")}` })))
    .optional();

export const KINDS = ["failure-mode", "acceptance-test"] as const;

export const CatalogQuery = z.strictObject({
  q: z.string().trim().max(200, "q must be at most 200 characters").optional(),
  category: list(CATEGORIES.map((c) => c.id) as [string, ...string[]], "category"),
  component: z
    .string()
    .transform((raw) => raw.split(",").map((v) => v.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9-]+$/, "component must be a component id")))
    .optional(),
  startup: list(STARTUP_LEVELS, "startup"),
  dataLoss: list(DATA_LOSS_LEVELS, "dataLoss"),
  kind: list(KINDS, "kind"),
  sort: z.enum(["title", "category", "startup", "dataLoss", "relevance"], { message: "sort must be one of: title, category, startup, dataLoss, relevance" }).optional(),
  dir: z.enum(["asc", "desc"], { message: "dir must be asc or desc" }).optional(),
});
export type CatalogQuery = z.infer<typeof CatalogQuery>;
export const FILTER_KEYS = ["q", "category", "component", "startup", "dataLoss", "kind", "sort", "dir"] as const;

export interface FieldErrors {
  [field: string]: string[];
}

/** Parses URL search params; unknown or repeated parameters are errors, not silently ignored. */
export function parseCatalogQuery(params: URLSearchParams): { query?: CatalogQuery; errors?: FieldErrors } {
  // No prototype: a parameter named "constructor" or "__proto__" is a key like any other.
  const raw: Record<string, string> = Object.create(null);
  const errors: FieldErrors = Object.create(null);
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1) errors[key] = [`${key} given ${values.length} times; join values with commas`];
    raw[key] = values[0];
  }
  const result = CatalogQuery.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.code === "unrecognized_keys" ? issue.keys.join(",") : String(issue.path[0] ?? "query");
      const message = issue.code === "unrecognized_keys" ? `unknown parameter; allowed: ${FILTER_KEYS.join(", ")}` : issue.message;
      (errors[field] ??= []).push(message);
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { query: result.data };
}

export const STARTUP_ORDER: Record<string, number> = { yes: 0, "affected-data": 1, possible: 2, no: 3 };
export const DATA_LOSS_ORDER: Record<string, number> = { yes: 0, possible: 1, "confidentiality-loss": 2, no: 3 };

export function startupLevel(entry: CatalogEntry): string | undefined {
  return entry.kind === "failure-mode" ? entry.startupBlock.level : undefined;
}
export function dataLossLevel(entry: CatalogEntry): string | undefined {
  return entry.kind === "failure-mode" ? entry.dataLoss.level : undefined;
}

/** Every text field of an entry, for full-text search. */
export function searchableText(entry: CatalogEntry): Record<string, string> {
  const common = {
    id: entry.id,
    title: entry.title,
    sourceRow: entry.sourceRow,
    components: entry.components.join(" "),
    category: entry.category,
    notes: entry.notes ?? "",
  };
  if (entry.kind === "acceptance-test") return { ...common, body: `${entry.expected} ${entry.evidence}` };
  return {
    ...common,
    body: [entry.cause, entry.impact, entry.detection, entry.control, entry.recovery, entry.raisedBy ?? ""].join(" "),
    flags: `${entry.startupBlock.seed} ${entry.dataLoss.seed}`,
    signals: entry.signals.join(" "),
  };
}

const FIELDS = ["id", "title", "sourceRow", "components", "category", "notes", "body", "flags", "signals"];

export function buildSearchIndex(entries: CatalogEntry[]): MiniSearch {
  const index = new MiniSearch({
    fields: FIELDS,
    storeFields: [],
    idField: "id",
    // Ids and signal names like kms.plugin.unhealthy or min_decryption_version stay searchable by part.
    tokenize: (text) => text.toLowerCase().split(/[^a-z0-9#]+/).filter(Boolean),
    searchOptions: { prefix: true, fuzzy: (term) => (term.length > 4 ? 0.2 : 0), boost: { title: 3, id: 2, sourceRow: 2 }, combineWith: "AND" },
  });
  index.addAll(entries.map((entry) => ({ ...searchableText(entry), id: entry.id })));
  return index;
}

function matchesFilters(entry: CatalogEntry, query: CatalogQuery): boolean {
  if (query.category?.length && !query.category.includes(entry.category)) return false;
  if (query.kind?.length && !query.kind.includes(entry.kind)) return false;
  if (query.component?.length && !query.component.some((c) => entry.components.includes(c))) return false;
  if (query.startup?.length && !(query.startup as string[]).includes(startupLevel(entry) ?? "")) return false;
  if (query.dataLoss?.length && !(query.dataLoss as string[]).includes(dataLossLevel(entry) ?? "")) return false;
  return true;
}

/** Applies filters and search; with a query and no explicit sort, best matches come first. */
export function filterCatalog(entries: CatalogEntry[], query: CatalogQuery, index?: MiniSearch): CatalogEntry[] {
  let result = entries.filter((entry) => matchesFilters(entry, query));
  const q = query.q?.trim();
  if (q) {
    const hits = (index ?? buildSearchIndex(entries)).search(q);
    const rank = new Map(hits.map((hit, i) => [String(hit.id), i]));
    result = result.filter((entry) => rank.has(entry.id));
    if (!query.sort || query.sort === "relevance") return result.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  }
  return sortEntries(result, query.sort === "relevance" ? undefined : query.sort, query.dir);
}

export function sortEntries(entries: CatalogEntry[], sort?: string, dir: "asc" | "desc" = "asc"): CatalogEntry[] {
  const categoryOrder = new Map(CATEGORIES.map((c, i) => [c.id, i]));
  const key = (entry: CatalogEntry): number | string => {
    switch (sort) {
      case "title":
        return entry.title.toLowerCase();
      case "startup":
        return STARTUP_ORDER[startupLevel(entry) ?? ""] ?? 9;
      case "dataLoss":
        return DATA_LOSS_ORDER[dataLossLevel(entry) ?? ""] ?? 9;
      default:
        return categoryOrder.get(entry.category as never) ?? 99;
    }
  };
  const sign = dir === "desc" ? -1 : 1;
  // Stable sort keeps the catalog's own order (the seed's row order) within equal keys.
  return [...entries].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -sign : ka > kb ? sign : 0;
  });
}
