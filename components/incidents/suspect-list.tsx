import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { utc } from "@/components/ui/time";
import { SeparatingQuestion } from "./separating-question";
import { sureness } from "./sureness";
import type { IncidentDetailView, SuspectView } from "./types";

type Steps = IncidentDetailView["live"]["steps"];

/**
 * The first answer's outage as each part of the stack sees it (catalog/root-causes.yaml): what to fix, then the
 * other views with their share of the evidence and the runbook step that says what that part does meanwhile.
 */
function Facets({ top, steps }: { top: SuspectView; steps: Steps }) {
  if (!top.facets?.length || !top.rootCause) return null;
  return (
    <div className="facets" data-testid="facets">
      <p className="small">
        <strong>One outage, {top.facets.length + 1} views</strong> ({top.rootCause.title}). Fix {top.title}
        {steps[top.id] ? (
          <>
            {": "}
            <Link href={steps[top.id].href} title={steps[top.id].where}>
              {steps[top.id].title}
            </Link>
          </>
        ) : null}
        ; meanwhile:
      </p>
      <ul className="small">
        {top.facets.map((f) => (
          <li key={f.id} data-facet={f.id}>
            <Link href={`/catalog/${f.id}`}>{f.title}</Link>
            {steps[f.id] ? (
              <>
                {" "}
                · what to do: <Link href={steps[f.id].href}>{steps[f.id].title}</Link> <span className="muted">({steps[f.id].where})</span>
              </>
            ) : null}
            <div className="muted">{f.reason}</div>
          </li>
        ))}
      </ul>
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

interface Props {
  suspects: SuspectView[];
  /** Where the question is answered, and what live data says: absent on pages that only show the ranking. */
  incidentId?: number;
  live?: Pick<IncidentDetailView["live"], "question" | "steps">;
  /** The latest separating question answered in place, as the timeline holds it: who said what, and when. */
  lastAnswer?: { actor: string; summary: string; at: string };
}

/** The catalog's failure modes ranked by the evidence for and against each, with how sure the ranking is; the first leads with its root cause. */
export function SuspectList({ suspects, incidentId, live, lastAnswer }: Props) {
  if (suspects.length === 0) return <p className="muted">No failure mode in the catalog matches the signals yet.</p>;
  const shown = suspects.slice(0, 8);
  return (
    <>
      {lastAnswer ? (
        <p className="small" role="status" data-testid="question-result">
          {lastAnswer.actor} {lastAnswer.summary} ({utc(lastAnswer.at)}); the first suspect is now {suspects[0].title}.
        </p>
      ) : null}
      {suspects[0].undecided && incidentId !== undefined ? (
        <SeparatingQuestion incidentId={incidentId} top={suspects[0]} suggestion={live?.question ?? null} />
      ) : null}
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
              {i === 0 ? <Facets top={s} steps={live?.steps ?? {}} /> : null}
              {i < 3 ? <Evidence suspect={s} /> : <div className="muted small">{s.reason}</div>}
            </li>
          );
        })}
      </ol>
      {suspects.length > shown.length ? <p className="muted small">{suspects.length - shown.length} less likely ones are in the export.</p> : null}
    </>
  );
}
