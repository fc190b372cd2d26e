import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { KmsSeveritySummary } from "@/components/blast-radius/kms-summary";
import { SectionView } from "@/components/blast-radius/section-view";
import { getBlastRadiusPage, listBlastRadiusPages } from "@/lib/catalog/blast-radius";
import { loadBlastRadiusPage } from "@/lib/views/blast-radius";

type Params = Promise<{ component: string }>;

export function generateStaticParams() {
  return listBlastRadiusPages().map((p) => ({ component: p.id }));
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await pageAccess("viewer");
  const page = getBlastRadiusPage((await params).component);
  return { title: page ? `Blast radius: ${page.title}` : "Blast radius not found" };
}

// No loading.tsx for this route (nor one above it: the list's sits in the (overview) group): a loading state
// starts the response with 200 before notFound() runs, and a mistyped link must answer 404.
export default async function BlastRadiusComponentPage({ params }: { params: Params }) {
  await pageAccess("viewer");
  const data = loadBlastRadiusPage((await params).component);
  if (!data) notFound();
  const { page, dependsOn: needs, neededBy, entryCount, kmsSummary, catalogTitles, runbookTitles } = data;
  return (
    <article>
      <div className="breadcrumbs">
        <Link href="/blast-radius">Blast radius</Link> › {page.title}
      </div>
      <h1>{page.title}</h1>
      <div className="key-property" data-testid="key-property">
        <div className="label">Key property</div>
        <div className="value">{page.keyProperty}</div>
      </div>
      <p>
        <strong>If it breaks:</strong> {page.ifItBreaks}
      </p>
      <p className="muted">
        {needs.length > 0 ? (
          <>
            Depends on:{" "}
            {needs.map((c) => (
              <ComponentLink key={c.id} {...c} />
            ))}
          </>
        ) : null}
        {neededBy.length > 0 ? (
          <>
            {" "}
            Needed by:{" "}
            {neededBy.map((c) => (
              <ComponentLink key={c.id} {...c} />
            ))}
          </>
        ) : null}
        {entryCount > 0 ? (
          <>
            {" "}
            <Link href={`/catalog?component=${page.id}`}>{entryCount} catalog entries for this component</Link>
          </>
        ) : null}
      </p>
      {kmsSummary ? <KmsSeveritySummary summary={kmsSummary} /> : null}
      {page.sections.map((section, i) => (
        <SectionView key={i} section={section} catalogTitles={catalogTitles} runbookTitles={runbookTitles} />
      ))}
      <p className="muted" style={{ fontSize: "0.85rem", marginTop: "2rem" }}>
        Source: seed {page.source.seed}
        {page.source.section ? `, “${page.source.section}”` : ""}.
      </p>
    </article>
  );
}

function ComponentLink({ id, name, hasPage }: { id: string; name: string; hasPage: boolean }) {
  return hasPage ? (
    <Link className="chip" href={`/blast-radius/${id}`}>
      {name}
    </Link>
  ) : (
    <span className="chip">{name}</span>
  );
}
