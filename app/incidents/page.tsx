import type { Metadata } from "next";
import { connection } from "next/server";
import { Suspense } from "react";
import { IncidentsEmpty } from "@/components/incidents/empty-state";
import { IncidentFilters, type FilterValues } from "@/components/incidents/incident-filters";
import { IncidentList } from "@/components/incidents/incident-list";
import { StoreDown } from "@/components/incidents/store-down";
import { renderedAt } from "@/components/incidents/format";
import type { IncidentRow } from "@/components/incidents/types";
import { getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import { listIncidents } from "@/lib/incidents/queries";
import { fieldErrors } from "@/lib/errors";
import { IncidentListQuery } from "@/lib/incidents/schemas";
import { listMonitoredNames } from "@/lib/monitor/monitor";

export const metadata: Metadata = { title: "Incidents" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";

export default async function IncidentsPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const values: FilterValues = { cluster: first(raw.cluster), status: first(raw.status), severity: first(raw.severity) };
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v));
  const parsed = IncidentListQuery.safeParse(given);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  const search = parsed.success ? new URLSearchParams(given).toString() : "";
  return (
    <>
      <h1>Incidents</h1>
      <p className="lead">Open first, then acknowledged, then resolved; the most severe and newest on top. The list updates by itself.</p>
      <IncidentFilters values={values} clusters={listMonitoredNames()} errors={errors} />
      <Suspense fallback={<p className="muted">Loading incidents…</p>}>
        <Incidents search={search} filtered={search !== ""} />
      </Suspense>
    </>
  );
}

async function Incidents({ search, filtered }: { search: string; filtered: boolean }) {
  await connection();
  const env = loadEnv();
  let rows: IncidentRow[];
  try {
    const filter = IncidentListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
    rows = JSON.parse(JSON.stringify(await listIncidents(getDb(), filter)));
  } catch (error) {
    return <StoreDown error={error} />;
  }
  return (
    <IncidentList
      initial={rows}
      search={search}
      now={renderedAt()}
      pollMs={env.FAULTLINE_POLL_SECONDS * 1000}
      empty={<IncidentsEmpty rules={env.FAULTLINE_INCIDENT_RULES} filtered={filtered} />}
    />
  );
}
