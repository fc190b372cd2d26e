import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import { listIncidents } from "@/lib/incidents/queries";
import { fieldErrors } from "@/lib/errors";
import { IncidentListQuery } from "@/lib/incidents/schemas";
import { listMonitoredNames } from "@/lib/live/registry";
import { toJson } from "./json";
import { readStore } from "./store-down";

// /incidents: the filters from the address (checked; a bad one is shown, never a 500), then the rows, which
// need Postgres and so load behind a Suspense boundary of their own (or say why Postgres did not answer).

type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";

export interface IncidentFiltersData {
  values: { cluster: string; status: string; severity: string };
  errors: Record<string, string[]>;
  /** The normalised query string of valid filters ("" for none or for invalid ones). */
  search: string;
  clusters: string[];
}

export function readIncidentFilters(raw: SearchParams): IncidentFiltersData {
  const values = { cluster: first(raw.cluster), status: first(raw.status), severity: first(raw.severity) };
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v));
  const parsed = IncidentListQuery.safeParse(given);
  return {
    values,
    errors: parsed.success ? {} : fieldErrors(parsed.error),
    search: parsed.success ? new URLSearchParams(given).toString() : "",
    clusters: listMonitoredNames(),
  };
}

/** The rows for a search from readIncidentFilters, or why the incident store could not be read. */
export async function loadIncidentRows(search: string) {
  const env = loadEnv();
  const filter = IncidentListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
  const read = await readStore(() => listIncidents(getDb(), filter));
  if (!read.ok) return read;
  const rules: IncidentRulesConfig = env.FAULTLINE_INCIDENT_RULES;
  return {
    ok: true as const,
    rows: toJson(read.value),
    renderedAt: Date.now(),
    pollMs: env.FAULTLINE_POLL_SECONDS * 1000,
    rules,
    filtered: search !== "",
  };
}
