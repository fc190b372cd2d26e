import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { KmsSeveritySummary } from "@/components/blast-radius/kms-summary";
import { SectionView } from "@/components/blast-radius/section-view";
import { getComponentMap } from "@/lib/catalog/queries";
import { getBlastRadiusPage, listBlastRadiusPages } from "@/lib/blast-radius/queries";
import { dependents, entriesForComponent } from "@/lib/blast-radius/view";
import { titleMaps } from "@/lib/runbooks/view";

type Params = Promise<{ component: string }>;

export function generateStaticParams() {
  return listBlastRadiusPages().map((p) => ({ component: p.id }));
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const page = getBlastRadiusPage((await params).component);
  return { title: page ? `Blast radius: ${page.title}` : "Blast radius not found" };
}

export default async function BlastRadiusComponentPage({ params }: { params: Params }) {
  const page = getBlastRadiusPage((await params).component);
  if (!page) notFound();
  const components = getComponentMap();
  const titles = titleMaps();
  const needs = page.dependsOn;
  const neededBy = dependents(page.id);
  const entries = entriesForComponent(page.id);
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
            {needs.map((id) => (
              <ComponentLink key={id} id={id} name={components.get(id)?.name ?? id} hasPage={Boolean(getBlastRadiusPage(id))} />
            ))}
          </>
        ) : null}
        {neededBy.length > 0 ? (
          <>
            {" "}Needed by:{" "}
            {neededBy.map((p) => (
              <ComponentLink key={p.id} id={p.id} name={p.title} hasPage />
            ))}
          </>
        ) : null}
        {entries.length > 0 ? (
          <>
            {" "}
            <Link href={`/catalog?component=${page.id}`}>{entries.length} catalog entries for this component</Link>
          </>
        ) : null}
      </p>
      {page.id === "kms-plugin" ? <KmsSeveritySummary /> : null}
      {page.sections.map((section, i) => (
        <SectionView key={i} section={section} {...titles} />
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
