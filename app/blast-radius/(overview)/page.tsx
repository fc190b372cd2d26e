import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { DependencyDiagram } from "@/components/blast-radius/dependency-diagram";
import { loadBlastRadiusOverview } from "@/lib/views/blast-radius";

export const metadata: Metadata = { title: "Blast radius" };

export default async function BlastRadiusOverview() {
  await pageAccess("viewer");
  const { svg, pageIds, components, backout } = loadBlastRadiusOverview();
  return (
    <>
      <h1>Blast radius</h1>
      <p className="lead">
        If a component breaks, what happens to the cluster, and what is safe to do about it. Read before a production install; use during an incident to decide
        the next move.
      </p>
      <div className="two-col">
        <div>
          <table className="data" data-testid="if-it-breaks">
            <thead>
              <tr>
                <th scope="col">Component</th>
                <th scope="col">If it breaks</th>
              </tr>
            </thead>
            <tbody>
              {components.map((page) => (
                <tr key={page.id}>
                  <th scope="row">
                    <Link href={`/blast-radius/${page.id}`}>{page.title}</Link>
                  </th>
                  <td>
                    {page.ifItBreaks}
                    <span className="sub muted">{page.keyProperty}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {backout ? (
            <p className="callout" style={{ marginTop: "1rem" }}>
              Worst case: <Link href={`/blast-radius/${backout.id}`}>{backout.title}</Link>. {backout.keyProperty}
            </p>
          ) : null}
        </div>
        <aside>
          <h2 style={{ marginTop: 0 }}>Dependencies</h2>
          <p className="muted" style={{ fontSize: "0.85rem" }}>
            An arrow points from a component to what breaks with it. Select a blue component to open its page.
          </p>
          {svg ? (
            <DependencyDiagram svg={svg} pages={pageIds} />
          ) : (
            <ul data-testid="dependency-list">
              {components.map((p) => (
                <li key={p.id}>
                  {p.title} depends on {p.dependsOn.length ? p.dependsOn.join(", ") : "nothing else in the stack"}
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
    </>
  );
}
