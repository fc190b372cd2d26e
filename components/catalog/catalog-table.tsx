"use client";

import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
} from "@tanstack/react-table";
import Link from "next/link";
import { useDeferredValue, useMemo, useState } from "react";
import { buildSearchIndex, dataLossLevel, filterCatalog, FILTER_KEYS, startupLevel, type CatalogQuery } from "@/lib/catalog/filter";
import { CATEGORIES, DATA_LOSS_LEVELS, STARTUP_LEVELS, type CatalogEntry } from "@/lib/catalog/schema";
import { DataLossBadge, StartupBadge } from "./severity-badges";
import { DATA_LOSS_LABEL, STARTUP_LABEL } from "./severity";

interface Props {
  entries: CatalogEntry[];
  components: { id: string; name: string }[];
  initial: CatalogQuery;
}

type SortKey = "title" | "category" | "startup" | "dataLoss";
interface ViewState {
  q: string;
  category: string;
  component: string;
  startup: string;
  dataLoss: string;
  kind: string;
  sort?: SortKey;
  dir: "asc" | "desc";
}

const CATEGORY_NAME = new Map<string, string>(CATEGORIES.map((c) => [c.id, c.name]));
const column = createColumnHelper<CatalogEntry>();

function toQuery(view: ViewState): CatalogQuery {
  const one = <T extends string>(value: string) => (value ? [value as T] : undefined);
  return {
    q: view.q || undefined,
    category: one(view.category),
    component: one(view.component),
    startup: one<NonNullable<CatalogQuery["startup"]>[number]>(view.startup),
    dataLoss: one<NonNullable<CatalogQuery["dataLoss"]>[number]>(view.dataLoss),
    kind: one<NonNullable<CatalogQuery["kind"]>[number]>(view.kind),
    sort: view.sort,
    dir: view.sort ? view.dir : undefined,
  };
}

function toSearch(view: ViewState): string {
  const params = new URLSearchParams();
  const query = toQuery(view);
  for (const key of FILTER_KEYS) {
    const value = query[key];
    if (value === undefined) continue;
    params.set(key, Array.isArray(value) ? value.join(",") : value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function CatalogTable({ entries, components, initial }: Props) {
  const [view, setView] = useState<ViewState>({
    q: initial.q ?? "",
    category: initial.category?.[0] ?? "",
    component: initial.component?.[0] ?? "",
    startup: initial.startup?.[0] ?? "",
    dataLoss: initial.dataLoss?.[0] ?? "",
    kind: initial.kind?.[0] ?? "",
    sort: initial.sort === "relevance" ? undefined : initial.sort,
    dir: initial.dir ?? "asc",
  });
  const deferred = useDeferredValue(view);
  const index = useMemo(() => buildSearchIndex(entries), [entries]);
  const rows = useMemo(() => filterCatalog(entries, toQuery(deferred), index), [entries, deferred, index]);
  const withoutFilters = useMemo(
    () => (deferred.q ? filterCatalog(entries, { q: deferred.q }, index).length : 0),
    [entries, deferred.q, index],
  );

  function update(patch: Partial<ViewState>) {
    setView((current) => {
      const next = { ...current, ...patch };
      // The URL is the shareable state of the view; replaceState keeps history clean while typing.
      window.history.replaceState(null, "", `/catalog${toSearch(next)}`);
      return next;
    });
  }

  const filtersActive = Boolean(view.category || view.component || view.startup || view.dataLoss || view.kind);
  const sorting: SortingState = view.sort ? [{ id: view.sort, desc: view.dir === "desc" }] : [];

  const columns = useMemo(
    () => [
      column.accessor("title", {
        id: "title",
        header: "Failure mode",
        cell: ({ row }) => (
          <>
            <Link href={`/catalog/${row.original.id}`}>{row.original.title}</Link>
            <span className="sub">
              {row.original.kind === "acceptance-test" ? "Acceptance test · " : ""}
              {row.original.kind === "failure-mode" ? row.original.impact : row.original.expected}
            </span>
          </>
        ),
      }),
      column.accessor("category", {
        id: "category",
        header: "Category",
        cell: ({ getValue }) => CATEGORY_NAME.get(getValue()) ?? getValue(),
      }),
      column.accessor((entry) => entry.components.join(", "), {
        id: "components",
        header: "Components",
        enableSorting: false,
        cell: ({ row }) => row.original.components.map((c) => <span key={c} className="chip">{c}</span>),
      }),
      column.accessor((entry) => startupLevel(entry) ?? "", {
        id: "startup",
        header: "Start-up block",
        cell: ({ row }) => <StartupBadge entry={row.original} />,
      }),
      column.accessor((entry) => dataLossLevel(entry) ?? "", {
        id: "dataLoss",
        header: "Data loss",
        cell: ({ row }) => <DataLossBadge entry={row.original} />,
      }),
    ],
    [],
  );

  // The React Compiler is not enabled, so TanStack Table's unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: (entry) => entry.id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    enableSortingRemoval: true,
    enableSorting: true,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      const first = next[0];
      update(first ? { sort: first.id as SortKey, dir: first.desc ? "desc" : "asc" } : { sort: undefined, dir: "asc" });
    },
  });

  return (
    <>
      <div className="toolbar" role="search">
        <label className="field">
          Search every field
          <input
            type="search"
            value={view.q}
            placeholder="e.g. JWKS, sealed, min_decryption_version"
            onChange={(event) => update({ q: event.target.value })}
            aria-label="Search the catalog"
            autoFocus
          />
        </label>
        <Select label="Category" value={view.category} onChange={(category) => update({ category })}
          options={CATEGORIES.map((c) => [c.id, c.name])} />
        <Select label="Component" value={view.component} onChange={(component) => update({ component })}
          options={components.map((c) => [c.id, c.name])} />
        <Select label="Blocks start-up" value={view.startup} onChange={(startup) => update({ startup })}
          options={STARTUP_LEVELS.map((l) => [l, STARTUP_LABEL[l].short])} />
        <Select label="Data-loss risk" value={view.dataLoss} onChange={(dataLoss) => update({ dataLoss })}
          options={DATA_LOSS_LEVELS.map((l) => [l, DATA_LOSS_LABEL[l].short])} />
        <Select label="Kind" value={view.kind} onChange={(kind) => update({ kind })}
          options={[["failure-mode", "Failure modes"], ["acceptance-test", "Acceptance tests"]]} />
      </div>
      <div className="result-line">
        <span aria-live="polite" data-testid="result-count">
          {rows.length} of {entries.length} entries
          {view.q ? ` matching “${view.q}”` : ""}
          {view.q && !view.sort ? ", best matches first" : ""}
        </span>
        {(filtersActive || view.q) && (
          <button type="button" className="button" onClick={() => update({ q: "", category: "", component: "", startup: "", dataLoss: "", kind: "" })}>
            Clear search and filters
          </button>
        )}
      </div>
      {rows.length === 0 ? (
        <div className="panel empty" data-testid="empty-state">
          <p>No entry matches this search and these filters.</p>
          {filtersActive && withoutFilters > 0 && (
            <p>
              {withoutFilters} {withoutFilters === 1 ? "entry matches" : "entries match"} “{view.q}” without the filters.{" "}
              <button type="button" className="button button-primary"
                onClick={() => update({ category: "", component: "", startup: "", dataLoss: "", kind: "" })}>
                Keep the search, clear the filters
              </button>
            </p>
          )}
        </div>
      ) : (
        <table className="data sortable">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sortable = header.column.id !== "components";
                  const state = header.column.getIsSorted();
                  return (
                    <th key={header.id} aria-sort={state ? (state === "desc" ? "descending" : "ascending") : undefined} scope="col">
                      {sortable ? (
                        <button type="button" onClick={header.column.getToggleSortingHandler()} title="Sort">
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden>{state === "asc" ? "▲" : state === "desc" ? "▼" : "↕"}</span>
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-entry-id={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={cell.column.id === "title" ? "title" : undefined} data-label={cellLabel(cell.column)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** A column's name beside each of its values on a small screen (app/small-screens.css); the title needs none. */
function cellLabel(column: { id: string; columnDef: { header?: unknown } }): string | undefined {
  return column.id !== "title" && typeof column.columnDef.header === "string" ? column.columnDef.header : undefined;
}

function Select({ label, value, onChange, options }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: (readonly [string, string])[] | [string, string][];
}) {
  return (
    <label className="field">
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Any</option>
        {options.map(([id, name]) => (
          <option key={id} value={id}>{name}</option>
        ))}
      </select>
    </label>
  );
}
