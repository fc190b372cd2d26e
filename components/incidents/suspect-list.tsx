import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { SuspectView } from "./types";

/** The catalog's failure modes ranked by how well they explain the incident, each with why. */
export function SuspectList({ suspects }: { suspects: SuspectView[] }) {
  if (suspects.length === 0) return <p className="muted">No failure mode in the catalog matches the signals yet.</p>;
  const shown = suspects.slice(0, 8);
  return (
    <>
      <ol className="suspects" data-testid="suspects">
        {shown.map((s, i) => (
          <li key={s.id} data-suspect={s.id} className={i === 0 ? "top" : undefined}>
            <Link href={`/catalog/${s.id}`} className="suspect-title">
              {s.title}
            </Link>{" "}
            {s.startupBlock === "yes" ? <Badge tone="red">blocks API-server start-up</Badge> : null}{" "}
            {s.dataLoss === "yes" ? <Badge tone="red">data-loss risk</Badge> : null}
            <div className="muted small">{s.reason}</div>
          </li>
        ))}
      </ol>
      {suspects.length > shown.length ? <p className="muted small">{suspects.length - shown.length} less likely ones are in the export.</p> : null}
    </>
  );
}
