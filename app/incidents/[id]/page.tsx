import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { IncidentView } from "@/components/incidents/incident-view";
import { StoreDown } from "@/components/incidents/store-down";
import { renderedAt } from "@/components/incidents/format";
import type { IncidentDetailView } from "@/components/incidents/types";
import { loadEnv } from "@/lib/env";
import { IncidentId } from "@/lib/incidents/schemas";
import { isMonitored, loadIncidentWithLive, runbookChoices, signalLinksFor } from "@/lib/incidents/view-data";
import { titleMaps } from "@/lib/runbooks/view";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const id = IncidentId.safeParse((await params).id);
  return { title: id.success ? `Incident #${id.data}` : "Incident not found" };
}

export default async function IncidentPage({ params }: { params: Params }) {
  await connection();
  const id = IncidentId.safeParse((await params).id);
  if (!id.success) notFound();
  let detail: IncidentDetailView | undefined;
  try {
    const loaded = await loadIncidentWithLive(id.data);
    detail = loaded && (JSON.parse(JSON.stringify(loaded)) as IncidentDetailView);
  } catch (error) {
    return (
      <>
        <Breadcrumbs />
        <h1>Incident #{id.data}</h1>
        <StoreDown error={error} />
      </>
    );
  }
  if (!detail) notFound();
  const signals = detail.members.map((m) => m.signal);
  return (
    <>
      <Breadcrumbs />
      <IncidentView
        initial={detail}
        links={signalLinksFor(signals)}
        runbooks={runbookChoices(detail.suspects, signals)}
        runbookTitles={titleMaps().runbookTitles}
        monitored={isMonitored(detail.incident.cluster)}
        now={renderedAt()}
        pollMs={loadEnv().FAULTLINE_POLL_SECONDS * 1000}
      />
    </>
  );
}

function Breadcrumbs() {
  return (
    <div className="breadcrumbs">
      <Link href="/incidents">Incidents</Link> ›
    </div>
  );
}
