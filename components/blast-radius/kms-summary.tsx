import Link from "next/link";
import type { FailureMode } from "@/lib/catalog/schema";
import type { SeveritySummary } from "@/lib/catalog/blast-radius-view";

function EntryList({ entries, seed }: { entries: FailureMode[]; seed: "startup" | "data" }) {
  return (
    <ul className="plain">
      {entries.map((e) => (
        <li key={e.id}>
          <Link href={`/catalog/${e.id}`}>{e.title}</Link> <span className="muted">({seed === "startup" ? e.startupBlock.seed : e.dataLoss.seed})</span>
        </li>
      ))}
    </ul>
  );
}

/** Which KMS failures block API-server start-up and which risk data, straight from the catalog. */
export function KmsSeveritySummary({ summary: s }: { summary: SeveritySummary }) {
  return (
    <section className="br-section" data-testid="kms-summary">
      <h2>Which failures block start-up or risk data</h2>
      <p className="muted">Computed from the {s.total} KMS failure modes in the catalog.</p>
      <div className="grid grid-3">
        <div className="flag flag-red">
          <div className="label">Block API-server start-up</div>
          <div className="value">{s.blocksStartup.length}</div>
          <EntryList entries={s.blocksStartup} seed="startup" />
        </div>
        <div className="flag flag-orange">
          <div className="label">Block start-up for some data, or may</div>
          <div className="value">{s.partlyBlocksStartup.length}</div>
          <EntryList entries={s.partlyBlocksStartup} seed="startup" />
        </div>
        <div className="flag flag-red">
          <div className="label">Can or may lose data</div>
          <div className="value">{s.losesData.length}</div>
          <EntryList entries={s.losesData} seed="data" />
          {s.confidentiality.length > 0 ? (
            <>
              <div className="label" style={{ marginTop: "0.6rem" }}>
                Confidentiality loss
              </div>
              <EntryList entries={s.confidentiality} seed="data" />
            </>
          ) : null}
        </div>
      </div>
    </section>
  );
}
