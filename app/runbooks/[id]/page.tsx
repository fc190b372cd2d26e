import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunbookWalker } from "@/components/runbooks/runbook-walker";
import { getComponentMap } from "@/lib/catalog/queries";
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
  const requested = (await searchParams).path;
  const { path, problem } = checkPath(runbook, Array.isArray(requested) ? requested[0] : requested);
  const components = getComponentMap();
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
      <RunbookWalker
        runbook={{ id: runbook.id, title: runbook.title, root: runbook.root, nodes: runbook.nodes }}
        svg={getDiagramSvg(runbook.id, runbook.flowchart)}
        flowchart={runbook.flowchart}
        initialPath={path}
        problem={problem}
        {...titleMaps()}
      />
    </>
  );
}
