import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import { listIncidentHistoryShared } from "@/lib/incidents/history/list-cache";
import { fieldErrors } from "@/lib/errors";
import { IncidentListQuery } from "@/lib/incidents/schemas";
import { listMonitoredNames } from "@/lib/live/registry";
import { toJson } from "./json";
import { readStore } from "./store-down";

// /incidents: the filters from the address (checked; a bad one is shown and left out, never a 500), then a page
// of rows, which needs Postgres and so loads behind a Suspense boundary of its own (or says why it could not).

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";

export const FILTER_KEYS = ["cluster", "status", "severity", "q", "from", "to"] as const;
export type FilterValues = Record<(typeof FILTER_KEYS)[number], string>;

export interface IncidentFiltersData {
  values: FilterValues;
  errors: Record<string, string[]>;
  /** The normalised query string of the valid filters and cursor ("" for none). */
  search: string;
  clusters: string[];
}

export function readIncidentFilters(raw: SearchParams): IncidentFiltersData {
  const values = Object.fromEntries(FILTER_KEYS.map((k) => [k, first(raw[k])])) as FilterValues;
  // The page size and the cursor come from links, not the form.
  const given: Record<string, string> = Object.fromEntries(
    Object.entries({ ...values, limit: first(raw.limit), cursor: first(raw.cursor) }).filter(([, v]) => v),
  );
  let parsed = IncidentListQuery.safeParse(given);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  // What is wrong is left out (and shown); the rest still filters.
  for (const key of Object.keys(errors)) delete given[key];
  if (!parsed.success) parsed = IncidentListQuery.safeParse(given);
  return { values, errors, search: new URLSearchParams(parsed.success ? given : {}).toString(), clusters: listMonitoredNames() };
}

/** A page of rows for a search from readIncidentFilters, or why the incident store could not be read. */
export async function loadIncidentRows(search: string) {
  const env = loadEnv();
  const filter = IncidentListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
  const read = await readStore(() => listIncidentHistoryShared(getDb(), filter));
  if (!read.ok) return read;
  const rules: IncidentRulesConfig = env.FAULTLINE_INCIDENT_RULES;
  return {
    ok: true as const,
    page: toJson(read.value),
    renderedAt: Date.now(),
    pollMs: env.FAULTLINE_POLL_SECONDS * 1000,
    rules,
    filtered: search !== "",
  };
}
