import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { StoreDown } from "@/components/incidents/store-down";
import { IncidentRunbookWalker } from "@/components/runbooks/incident-walker";
import { RunbookWalker } from "@/components/runbooks/runbook-walker";
import { getComponentMap } from "@/lib/catalog/queries";
import { loadEnv } from "@/lib/env";
import { loadWalkSession, type WalkSession } from "@/lib/incidents/walk-session";
import { getRunbook } from "@/lib/runbooks/queries";
import { getDiagramSvg, titleMaps } from "@/lib/runbooks/view";
import { checkPath } from "@/lib/runbooks/walk";

type Params = Promise<{ id: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const runbook = getRunbook((await params).id);
  return { title: runbook ? `Runbook: ${runbook.title}` : "Runbook not found" };
}

export default async function RunbookPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const runbook = getRunbook((await params).id);
  if (!runbook) notFound();
  const query = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const requested = one(query.path);
  const { path, problem } = checkPath(runbook, requested);
  const components = getComponentMap();
  const walker = {
    runbook: { id: runbook.id, title: runbook.title, root: runbook.root, nodes: runbook.nodes },
    svg: getDiagramSvg(runbook.id, runbook.flowchart),
    flowchart: runbook.flowchart,
    initialPath: path,
    problem,
    ...titleMaps(),
  };
  // Incident mode only when the link names an incident; the plain walk does no extra work.
  const incident = one(query.incident);
  let session: WalkSession | undefined;
  let storeError: unknown;
  if (incident !== undefined) {
    try {
      session = await loadWalkSession(runbook.id, incident, one(query.session) ?? "");
    } catch (error) {
      storeError = error;
    }
  }
  return (
    <>
      <div className="breadcrumbs">
        <Link href="/runbooks">Runbooks</Link> ›{" "}
        {runbook.components.map((c, i) => (
          <span key={c}>
            {i > 0 ? ", " : ""}
            {components.get(c)?.name ?? c}
          </span>
        ))}
      </div>
      <h1>{runbook.title}</h1>
      <p className="lead">
        <strong>Symptom:</strong> {runbook.symptom}
      </p>
      {storeError ? <StoreDown error={storeError} /> : null}
      {session && !session.ok ? (
        <p className="callout" role="alert" data-testid="session-problem">
          This link ties the runbook to an incident, but {session.problem}; below is the plain walk, and answers are not recorded.
        </p>
      ) : null}
      {session?.ok ? (
        <IncidentRunbookWalker {...walker} initialPath={session.path} problem={undefined} session={{ ...session, pollMs: loadEnv().FAULTLINE_POLL_SECONDS * 1000 }} />
      ) : (
        <RunbookWalker {...walker} />
      )}
    </>
  );
}
