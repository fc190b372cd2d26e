import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import type { IncidentRulesConfig } from "@/lib/incidents/config";
import { listIncidents } from "@/lib/incidents/queries";
import { fieldErrors } from "@/lib/incidents/request";
import { IncidentListQuery } from "@/lib/incidents/schemas";
import { listMonitoredNames } from "@/lib/monitor/monitor";
import { toJson } from "./json";

// /incidents: the filters from the address (checked; a bad one is shown, never a 500), then the rows, which
// need Postgres and so load behind a Suspense boundary of their own.

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

/** The rows for a search from readIncidentFilters; throws when the incident store cannot be read (the route's error.tsx says so). */
export async function loadIncidentRows(search: string) {
  const env = loadEnv();
  const filter = IncidentListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
  const rows = toJson(await listIncidents(getDb(), filter));
  const rules: IncidentRulesConfig = env.FAULTLINE_INCIDENT_RULES;
  return { rows, renderedAt: Date.now(), pollMs: env.FAULTLINE_POLL_SECONDS * 1000, rules, filtered: search !== "" };
}
