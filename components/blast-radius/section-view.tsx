import Link from "next/link";
import type { Section } from "@/lib/blast-radius/schema";
import { CommandBlock } from "@/components/ui/command-block";

type Titles = Record<string, string>;

function RowLinks({
  catalog,
  runbooks,
  catalogTitles,
  runbookTitles,
}: {
  catalog: string[];
  runbooks: string[];
  catalogTitles: Titles;
  runbookTitles: Titles;
}) {
  return (
    <>
      {catalog.map((id) => (
        <Link key={id} className="chip" href={`/catalog/${id}`} title="Catalog entry">
          {catalogTitles[id] ?? id}
        </Link>
      ))}
      {runbooks.map((id) => (
        <Link key={id} className="chip chip-runbook" href={`/runbooks/${id}`} title="Runbook">
          ▶ {runbookTitles[id] ?? id}
        </Link>
      ))}
    </>
  );
}

export function SectionView({ section, catalogTitles, runbookTitles }: { section: Section; catalogTitles: Titles; runbookTitles: Titles }) {
  const links = { catalogTitles, runbookTitles };
  return (
    <section className="br-section">
      <h2>{section.title}</h2>
      {section.text ? <p>{section.text}</p> : null}
      {section.list ? (
        <ul>
          {section.list.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      ) : null}
      {section.steps ? (
        <ol>
          {section.steps.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ol>
      ) : null}
      {section.settings ? (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Helm value</th>
              <th scope="col">Default</th>
              <th scope="col">Recommendation</th>
            </tr>
          </thead>
          <tbody>
            {section.settings.map((s) => (
              <tr key={s.name}>
                <td>
                  <code>{s.name}</code>
                </td>
                <td data-label="Helm value">{s.helmValue ? <code>{s.helmValue}</code> : <span className="muted">none</span>}</td>
                <td data-label="Default">{s.default}</td>
                <td data-label="Recommendation">{s.recommendation}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {section.matrix ? (
        <table className="data matrix" data-testid="matrix">
          <thead>
            <tr>
              {section.matrix.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
              <th scope="col">Catalog and runbooks</th>
            </tr>
          </thead>
          <tbody>
            {section.matrix.rows.map((row, i) => (
              <tr key={i}>
                {row.cells.map((cell, j) =>
                  j === 0 ? (
                    <th key={j} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={j} data-label={section.matrix!.columns[j]}>
                      {cell}
                    </td>
                  ),
                )}
                <td data-label="Catalog and runbooks">
                  <RowLinks catalog={row.catalog} runbooks={row.runbooks} {...links} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {section.scenarios ? (
        <table className="data" data-testid="scenarios">
          <thead>
            <tr>
              <th scope="col">Scenario</th>
              <th scope="col">What happens</th>
              <th scope="col">Catalog and runbooks</th>
            </tr>
          </thead>
          <tbody>
            {section.scenarios.map((row, i) => (
              <tr key={i}>
                <th scope="row">{row.scenario}</th>
                <td data-label="What happens">{row.behaviour}</td>
                <td data-label="Catalog and runbooks">
                  <RowLinks catalog={row.catalog} runbooks={row.runbooks} {...links} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {section.commands ? (
        <ol className="command-steps">
          {section.commands.map((c, i) => (
            <li key={i}>
              <CommandBlock command={c.command} label={c.label} />
            </li>
          ))}
        </ol>
      ) : null}
      {section.notes ? <p className="callout">{section.notes}</p> : null}
    </section>
  );
}
