import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { StoreDown } from "@/components/incidents/store-down";
import { IncidentRunbookWalker } from "@/components/runbooks/incident-walker";
import { RunbookWalker } from "@/components/runbooks/runbook-walker";
import { getRunbook } from "@/lib/catalog/runbooks";
import { loadRunbookPage } from "@/lib/views/runbooks";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await pageAccess("viewer");
  const runbook = getRunbook((await params).id);
  return { title: runbook ? `Runbook: ${runbook.title}` : "Runbook not found" };
}

// No loading.tsx for this route (nor one above it: the list's sits in the (overview) group): a loading state
// starts the response with 200 before notFound() runs, and a mistyped link must answer 404.
export default async function RunbookPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  await pageAccess("viewer");
  const data = await loadRunbookPage((await params).id, await searchParams);
  if (!data) notFound();
  const { walker, session } = data;
  return (
    <>
      <div className="breadcrumbs">
        <Link href="/runbooks">Runbooks</Link> ›{" "}
        {data.components.map((c, i) => (
          <span key={c.id}>
            {i > 0 ? ", " : ""}
            {c.name}
          </span>
        ))}
      </div>
      <h1>{data.title}</h1>
      <p className="lead">
        <strong>Symptom:</strong> {data.symptom}
      </p>
      {data.storeDown ? <StoreDown reason={data.storeDown} /> : null}
      {session && !session.ok ? (
        <p className="callout" role="alert" data-testid="session-problem">
          This link ties the runbook to an incident, but {session.problem}; below is the plain walk, and answers are not recorded.
        </p>
      ) : null}
      {session?.ok ? (
        <IncidentRunbookWalker {...walker} initialPath={session.path} problem={undefined} session={{ ...session, pollMs: data.pollMs, health: data.health }} />
      ) : (
        <RunbookWalker {...walker} />
      )}
    </>
  );
}
