import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { IncidentView } from "@/components/incidents/incident-view";
import { StoreDown } from "@/components/incidents/store-down";
import { incidentNumber, loadIncidentPage } from "@/lib/views/incident";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await pageAccess("viewer");
  const id = incidentNumber((await params).id);
  return { title: id ? `Incident #${id}` : "Incident not found" };
}

// No loading.tsx for this route (nor one above it: the list's sits in the (overview) group): a loading state
// starts the response with 200 before notFound() runs, and a mistyped link must answer 404.
export default async function IncidentPage({ params }: { params: Params }) {
  await pageAccess("viewer");
  await connection();
  const data = await loadIncidentPage((await params).id);
  if (!data) notFound();
  const breadcrumbs = (
    <div className="breadcrumbs">
      <Link href="/incidents">Incidents</Link> ›
    </div>
  );
  if (data.storeDown !== undefined)
    return (
      <>
        {breadcrumbs}
        <h1>Incident #{data.id}</h1>
        <StoreDown reason={data.storeDown} />
      </>
    );
  return (
    <>
      {breadcrumbs}
      <IncidentView
        initial={data.detail}
        links={data.links}
        runbooks={data.runbooks}
        runbookTitles={data.runbookTitles}
        recoveries={data.recoveries}
        monitored={data.monitored}
        now={data.renderedAt}
        pollMs={data.pollMs}
      />
    </>
  );
}
