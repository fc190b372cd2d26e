"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { postJson } from "@/components/queries/http";
import { utc } from "@/components/ui/time";
import type { SessionView } from "./types";
import { useCan } from "@/components/viewer";

export const incidentRunbookHref = (runbookId: string, incidentId: number, sessionId: number) =>
  `/runbooks/${runbookId}?incident=${incidentId}&session=${sessionId}`;

interface Props {
  incidentId: number;
  sessions: SessionView[];
  /** The runbooks worth starting, best first. */
  runbooks: { id: string; title: string }[];
  titles: Record<string, string>;
  /** Session id → the label of the leaf it ended on (from the timeline). */
  outcomes: Record<number, string>;
}

/** Runbooks walked for this incident with their recorded paths, and "Start runbook". */
export function RunbookSessions({ incidentId, sessions, runbooks, titles, outcomes }: Props) {
  const router = useRouter();
  const canStart = useCan("responder");
  const [choice, setChoice] = useState(runbooks[0]?.id ?? "");
  const start = useMutation({
    mutationFn: () => postJson<{ session: SessionView }>(`/api/v1/incidents/${incidentId}/runbook-sessions`, choice ? { runbookId: choice } : {}),
    onSuccess: ({ session }) => router.push(incidentRunbookHref(session.runbookId, incidentId, session.id)),
  });
  return (
    <>
      {canStart ? (
        <div className="start-runbook">
          {runbooks.length > 1 ? (
            <select aria-label="Runbook to start" value={choice} onChange={(e) => setChoice(e.target.value)}>
              {runbooks.map((r, i) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                  {i === 0 ? " (best match)" : ""}
                </option>
              ))}
            </select>
          ) : runbooks.length === 1 ? (
            <span>{runbooks[0].title}</span>
          ) : null}
          <button type="button" className="button button-primary" disabled={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
            {start.isPending || start.isSuccess ? "Starting…" : "▶ Start runbook"}
          </button>
          {start.error ? (
            <p className="field-error" role="alert">
              Not started: {start.error.message}
            </p>
          ) : null}
        </div>
      ) : null}
      {sessions.length === 0 ? <p className="muted">No runbook walked yet. Each answer is recorded here and in the postmortem.</p> : null}
      {sessions.map((s) => (
        <div key={s.id} className="session" data-testid="session" data-session={s.id}>
          <div>
            <strong>{titles[s.runbookId] ?? s.runbookId}</strong>{" "}
            {s.finishedAt ? <Badge tone="green">finished</Badge> : <Badge tone="orange">in progress</Badge>}{" "}
            <span className="muted small">
              started by {s.startedBy}, {utc(s.startedAt)}
            </span>{" "}
            <Link href={incidentRunbookHref(s.runbookId, incidentId, s.id)}>{s.finishedAt ? "View" : "Continue"}</Link>
          </div>
          {s.steps.length > 0 ? (
            <ol className="recorded-path">
              {s.steps.map((step) => (
                <li key={step.index}>
                  {step.question} → <strong>{step.answer ?? "next"}</strong>
                  {step.suggested ? (
                    <span className={step.followedSuggestion ? "muted small" : "override small"}>
                      {" "}
                      (live data suggested {step.suggested.answer}
                      {step.followedSuggestion ? "" : "; overridden"})
                    </span>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
          {s.finishedAt && s.outcome ? (
            <p className="small">
              Ended at <strong>{outcomes[s.id] ?? s.outcome}</strong>.
            </p>
          ) : null}
        </div>
      ))}
    </>
  );
}
