import Link from "next/link";
import { CATEGORIES } from "@/lib/catalog/schema";
import type { CatalogEntryPage } from "@/lib/views/catalog-entry";
import { DataLossBadge, StartupBadge } from "./severity-badges";
import { DATA_LOSS_LABEL, STARTUP_LABEL } from "./severity";

const SEEDS: Record<string, string> = {
  "000": "KMS v2 plugin on OpenBao Transit: failure-mode catalog",
  "001": "Confidential GPU workload design, Appendix E",
  "002": "Secret-protection stack: operational readiness",
};

/** How the diagnosis weighs evidence for this entry: what a reviewer checks before trusting a suspect. */
function Recognition({ entry, errorClasses, explains }: Pick<CatalogEntryPage, "entry" | "errorClasses" | "explains">) {
  if (entry.kind !== "failure-mode" || !entry.diagnosis) return null;
  const d = entry.diagnosis;
  const list = (title: string, ids: string[], testId: string) =>
    ids.length === 0 ? null : (
      <>
        <h3>{title}</h3>
        <ul className="plain" data-testid={testId}>
          {ids.map((id) => (
            <li key={id}>
              {errorClasses.get(id)?.title ?? id}
              <div className="muted small">
                e.g. <code>{errorClasses.get(id)?.example}</code>
              </div>
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <section className="panel" data-testid="entry-recognition">
      <h2 style={{ marginTop: 0 }}>How Faultline recognises it</h2>
      {list("Error text that points here", d.supports, "recognition-supports")}
      {list("Also fits", d.hints, "recognition-hints")}
      {list("Argues against it", d.contradicts, "recognition-contradicts")}
      {d.needs.length > 0 ? (
        <p className="small">
          Fires whenever this is the cause: {d.needs.map((n) => <code key={n}>{n} </code>)}(seen ok, it argues against it)
        </p>
      ) : null}
      {explains.length > 0 ? (
        <p className="small" data-testid="recognition-explains">
          When this is the cause, it also accounts for{" "}
          {explains.map((other, i) => (
            <span key={other.id}>
              {i > 0 ? ", " : ""}
              <Link href={`/catalog/${other.id}`}>{other.title}</Link>
            </span>
          ))}
          : their symptoms count for it once text of its own points here.
        </p>
      ) : null}
      {d.question ? <p className="small">Confirm with: {d.question}</p> : null}
    </section>
  );
}

export function EntryDetail({ entry, components, signals, related, runbookLinks, pages, errorClasses, explains }: CatalogEntryPage) {
  const category = CATEGORIES.find((c) => c.id === entry.category);
  return (
    <article>
      <div className="entry-head">
        <div className="breadcrumbs">
          <Link href="/catalog">Catalog</Link> ›{" "}
          <Link href={`/catalog?category=${entry.category}`}>{category?.name ?? entry.category}</Link>
        </div>
        <h1>{entry.title}</h1>
        <div className="muted">
          <code>{entry.id}</code> · {entry.kind === "failure-mode" ? "Failure mode" : "Acceptance test"}
        </div>
      </div>

      {entry.kind === "failure-mode" ? (
        <div className="flags" data-testid="severity-flags">
          <Flag label="API-server start-up" look={STARTUP_LABEL[entry.startupBlock.level]} seed={entry.startupBlock.seed} />
          <Flag label="Data-loss risk" look={DATA_LOSS_LABEL[entry.dataLoss.level]} seed={entry.dataLoss.seed} />
        </div>
      ) : null}

      <div className="two-col">
        <div className="fields">
          {entry.kind === "failure-mode" ? (
            <>
              <Field title="Impact" text={entry.impact} />
              <Field title="Cause" text={entry.cause} />
              <Field title="How to detect it" text={entry.detection} />
              <Field title="How to recover" text={entry.recovery} highlight />
              <Field title="What prevents it" text={entry.control} />
              {entry.raisedBy ? <Field title="Raised by" text={entry.raisedBy} /> : null}
            </>
          ) : (
            <>
              <Field title="Expected result" text={entry.expected} />
              <Field title="Evidence to retain" text={entry.evidence} highlight />
            </>
          )}
          {entry.notes ? <Field title="Notes" text={entry.notes} /> : null}
        </div>

        <aside className="grid">
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Components</h2>
            <ul className="plain">
              {entry.components.map((id) => (
                <li key={id}>
                  <Link href={`/catalog?component=${id}`}>{components.get(id)?.name ?? id}</Link>
                  <div className="muted" style={{ fontSize: "0.85rem" }}>{components.get(id)?.summary}</div>
                </li>
              ))}
            </ul>
          </section>
          {entry.kind === "failure-mode" ? (
            <section className="panel">
              <h2 style={{ marginTop: 0 }}>Live signals</h2>
              {entry.signals.length === 0 ? (
                <p className="muted">No live check detects this yet; use the detection notes.</p>
              ) : (
                <ul className="plain">
                  {entry.signals.map((id) => (
                    <li key={id}>
                      <code>{id}</code>
                      <div className="muted" style={{ fontSize: "0.85rem" }}>{signals.get(id)?.title}</div>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ) : null}
          <Recognition entry={entry} errorClasses={errorClasses} explains={explains} />
          <section className="panel" data-testid="entry-runbooks">
            <h2 style={{ marginTop: 0 }}>Runbooks that reach this</h2>
            {runbookLinks.length === 0 ? (
              <p className="muted">No runbook ends here yet; use the recovery notes.</p>
            ) : (
              <ul className="plain">
                {runbookLinks.map((link) => (
                  <li key={`${link.runbook.id}-${link.node}`}>
                    <Link href={`/runbooks/${link.runbook.id}?path=${link.path}`}>{link.runbook.title}</Link>
                    <div className="muted" style={{ fontSize: "0.85rem" }}>at step {link.node}: {link.label}</div>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {pages.length > 0 ? (
            <section className="panel" data-testid="entry-blast-radius">
              <h2 style={{ marginTop: 0 }}>Blast radius</h2>
              <ul className="plain">
                {pages.map((page) => (
                  <li key={page.id}>
                    <Link href={`/blast-radius/${page.id}`}>{page.title}</Link>
                    <div className="muted" style={{ fontSize: "0.85rem" }}>{page.keyProperty}</div>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Related entries</h2>
            {related.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul className="plain" data-testid="related">
                {related.map((other) => (
                  <li key={other.id}>
                    <Link href={`/catalog/${other.id}`}>{other.title}</Link>{" "}
                    <StartupBadge entry={other} prefix="start-up" /> <DataLossBadge entry={other} prefix="data loss" />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="panel">
            <h2 style={{ marginTop: 0 }}>Source</h2>
            <p>
              Seed {entry.source.seed}: {SEEDS[entry.source.seed] ?? "source document"}, table “{entry.source.table}”, row “
              {entry.sourceRow}”.
            </p>
            <p className="muted" style={{ fontSize: "0.85rem" }}>
              Defined in <code>{entry.source.file}:{entry.source.line}</code>
            </p>
          </section>
        </aside>
      </div>
    </article>
  );
}

function Field({ title, text, highlight }: { title: string; text: string; highlight?: boolean }) {
  return (
    <section className={highlight ? "recovery" : undefined}>
      <h2>{title}</h2>
      <p>{text}</p>
    </section>
  );
}

function Flag({ label, look, seed }: { label: string; look: { label: string; tone: string }; seed: string }) {
  return (
    <div className={`flag flag-${look.tone}`}>
      <div className="label">{label}</div>
      <div className="value">{look.label}</div>
      <div className="seed">Source says: “{seed}”</div>
    </div>
  );
}
