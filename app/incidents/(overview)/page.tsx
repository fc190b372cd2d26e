import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import { connection } from "next/server";
import { Suspense } from "react";
import { IncidentsEmpty } from "@/components/incidents/empty-state";
import { IncidentFilters } from "@/components/incidents/incident-filters";
import { IncidentList } from "@/components/incidents/incident-list";
import { IncidentListSkeleton } from "@/components/incidents/incident-list-skeleton";
import { StoreDown } from "@/components/incidents/store-down";
import { loadIncidentRows, readIncidentFilters } from "@/lib/views/incidents";

export const metadata: Metadata = { title: "Incidents" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function IncidentsPage({ searchParams }: { searchParams: SearchParams }) {
  await pageAccess("viewer");
  const { values, clusters, errors, search } = readIncidentFilters(await searchParams);
  return (
    <>
      <h1>Incidents</h1>
      <p className="lead">
        Open first, then acknowledged, then resolved; the most severe and newest on top, a page at a time. Search titles, subjects, suspects and notes. The list
        updates by itself.
      </p>
      <IncidentFilters values={values} clusters={clusters} errors={errors} />
      <Suspense fallback={<IncidentListSkeleton />}>
        <Incidents search={search} clusters={clusters} />
      </Suspense>
    </>
  );
}

/** The rows need Postgres: the filters above show at once, the list streams in when read. */
async function Incidents({ search, clusters }: { search: string; clusters: string[] }) {
  await connection();
  const data = await loadIncidentRows(search);
  if (!data.ok) return <StoreDown reason={data.storeDown} />;
  const { page, renderedAt, pollMs, rules, filtered } = data;
  return (
    <IncidentList
      initial={page}
      search={search}
      now={renderedAt}
      pollMs={pollMs}
      monitored={clusters}
      empty={<IncidentsEmpty rules={rules} filtered={filtered} />}
    />
  );
}
