import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { KindBadge } from "@/components/runbooks/step-details";
import { CommandBlock } from "@/components/ui/command-block";
import { getRunbook, listRunbooks } from "@/lib/catalog/runbooks";
import { loadRunbookPrint } from "@/lib/views/runbooks";

type Params = Promise<{ id: string }>;

export function generateStaticParams() {
  return listRunbooks().map((r) => ({ id: r.id }));
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await pageAccess("viewer");
  const runbook = getRunbook((await params).id);
  return { title: runbook ? `Print: ${runbook.title}` : "Runbook not found" };
}

/** Every step with its commands, in order from the start, for paper or a second screen. */
export default async function RunbookPrintPage({ params }: { params: Params }) {
  await pageAccess("viewer");
  const data = loadRunbookPrint((await params).id);
  if (!data) notFound();
  const { runbook, steps, labels, catalogTitles, runbookTitles } = data;
  return (
    <article className="print-view">
      <p className="no-print">
        <Link href={`/runbooks/${runbook.id}`}>← Back to the guided runbook</Link>
      </p>
      <h1>{runbook.title}</h1>
      <p>
        <strong>Symptom:</strong> {runbook.symptom}
      </p>
      {runbook.quickChecks.length > 0 ? (
        <section>
          <h2>Quick checks</h2>
          {runbook.quickChecks.map((c, i) => (
            <CommandBlock key={i} command={c.command} label={c.label} />
          ))}
        </section>
      ) : null}
      <ol className="print-steps">
        {steps.map((node) => (
          <li key={node.id} id={`step-${node.id}`}>
            <h2>
              <span className="muted">{node.id}</span> {node.label} <KindBadge kind={node.kind} />
            </h2>
            {node.text ? <p>{node.text}</p> : null}
            {node.commands.map((c, i) => (
              <CommandBlock key={i} command={c.command} label={c.label} />
            ))}
            {node.expect ? (
              <p>
                <strong>Expect:</strong> {node.expect}
              </p>
            ) : null}
            {node.next.length > 0 ? (
              <ul>
                {node.next.map((n) => (
                  <li key={n.to}>
                    {n.label ? `${n.label}: ` : "Then: "}go to <a href={`#step-${n.to}`}>{n.to}</a> ({labels.get(n.to)})
                  </li>
                ))}
              </ul>
            ) : null}
            {node.catalog.length > 0 ? <p>Catalog: {node.catalog.map((id) => catalogTitles[id] ?? id).join("; ")}</p> : null}
            {node.runbooks.length > 0 ? <p>Continue with: {node.runbooks.map((id) => runbookTitles[id] ?? id).join("; ")}</p> : null}
          </li>
        ))}
      </ol>
    </article>
  );
}
