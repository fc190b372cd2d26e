import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import { connection } from "next/server";
import { FleetFilters } from "@/components/fleet/fleet-filters";
import { FleetView } from "@/components/fleet/fleet-view";
import { loadFleetPage } from "@/lib/views/fleet";

export const metadata: Metadata = { title: "Fleet" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function FleetPage({ searchParams }: { searchParams: SearchParams }) {
  await pageAccess("viewer");
  await connection();
  const { rows, storeDown, filter, values, errors, pollSeconds, renderedAt } = await loadFleetPage(await searchParams);
  return (
    <>
      <h1>Fleet</h1>
      <p className="lead">
        Every watched cluster, worst first: critical, warning, unknown, stale (Faultline has not read it lately), then ok; within a state, the one in it longest
        first. Updated live; a cluster&apos;s name opens its page.
      </p>
      <FleetFilters values={values} errors={errors} />
      <FleetView initial={{ rows, ...(storeDown ? { storeDown } : {}) }} filter={filter} now={renderedAt} pollMs={pollSeconds * 1000} />
    </>
  );
}
