import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { sureness } from "./sureness";
import type { SuspectView } from "./types";

/** When the evidence does not separate the first two: say so, and the question that would. */
function Undecided({ top }: { top: SuspectView }) {
  const u = top.undecided!;
  const step = u.runbook;
  return (
    <div className="undecided" role="note" data-testid="undecided">
      <strong>
        Cannot tell between {top.title} and {u.withTitle} from the evidence.
      </strong>{" "}
      <span>
        Check: {u.question}
        {step ? (
          <>
            {" "}
            (<Link href={`/runbooks/${step.id}${step.path?.length ? `?path=${step.path.join(".")}` : ""}`}>{step.title}</Link> asks it)
          </>
        ) : null}
      </span>
    </div>
  );
}

function Evidence({ suspect }: { suspect: SuspectView }) {
  if (!suspect.supports?.length && !suspect.contradicts?.length) return <div className="muted small">{suspect.reason}</div>;
  return (
    <dl className="evidence small">
      {suspect.supports?.length ? (
        <>
          <dt>For</dt>
          {suspect.supports.slice(0, 4).map((s) => (
            <dd key={s}>{s}</dd>
          ))}
        </>
      ) : null}
      {suspect.contradicts?.length ? (
        <>
          <dt>Against</dt>
          {suspect.contradicts.slice(0, 3).map((s) => (
            <dd key={s}>{s}</dd>
          ))}
        </>
      ) : null}
    </dl>
  );
}

/** The catalog's failure modes ranked by the evidence for and against each, with how sure the ranking is. */
export function SuspectList({ suspects }: { suspects: SuspectView[] }) {
  if (suspects.length === 0) return <p className="muted">No failure mode in the catalog matches the signals yet.</p>;
  const shown = suspects.slice(0, 8);
  return (
    <>
      {suspects[0].undecided ? <Undecided top={suspects[0]} /> : null}
      <ol className="suspects" data-testid="suspects">
        {shown.map((s, i) => {
          const sure = s.confidence === undefined ? undefined : sureness(s.confidence, suspects.length);
          return (
            <li key={s.id} data-suspect={s.id} className={i === 0 ? "top" : undefined}>
              <Link href={`/catalog/${s.id}`} className="suspect-title">
                {s.title}
              </Link>{" "}
              {sure ? (
                <Badge
                  tone={sure.tone}
                  title="the share of the evidence this suspect holds; how often such figures were right is measured by npm run eval:diagnosis"
                >
                  {sure.word} · {sure.share}
                </Badge>
              ) : null}{" "}
              {s.startupBlock === "yes" ? <Badge tone="red">blocks API-server start-up</Badge> : null}{" "}
              {s.dataLoss === "yes" ? <Badge tone="red">data-loss risk</Badge> : null}
              {i < 3 ? <Evidence suspect={s} /> : <div className="muted small">{s.reason}</div>}
            </li>
          );
        })}
      </ol>
      {suspects.length > shown.length ? <p className="muted small">{suspects.length - shown.length} less likely ones are in the export.</p> : null}
    </>
  );
}
