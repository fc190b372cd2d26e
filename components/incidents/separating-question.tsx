"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { postJson } from "@/components/queries/http";
import { incidentQuery } from "@/components/queries/incidents";
import { useCan } from "@/components/viewer";
import type { IncidentDetailView, SuspectView } from "./types";

type Suggestion = IncidentDetailView["live"]["question"];

/**
 * When the evidence does not separate the first two suspects, or names the first while the second holds 10% or more: says so, asks the question
 * that would separate them, and takes the answer here. A runbook question offers its branches, each with the suspect it points to, and what live data
 * suggests; a catalog question offers the two suspects. The answer is evidence: the suspects are ranked again at once.
 */
export function SeparatingQuestion({ incidentId, top, suggestion }: { incidentId: number; top: SuspectView; suggestion: Suggestion }) {
  const canAnswer = useCan("responder");
  const queryClient = useQueryClient();
  const answer = useMutation({
    mutationFn: (body: object) => postJson(`/api/v1/incidents/${incidentId}/answers`, body),
    // Not awaited: the answer is recorded once the server replied, whatever the refetches take.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: incidentQuery(incidentId).queryKey }),
  });
  const u = top.undecided;
  if (!u) return answer.isPending ? <p className="small">Recording the answer…</p> : null;
  const step = u.runbook;
  const titleOf = (id: string) => (id === top.id ? top.title : id === u.with ? u.withTitle : id);
  return (
    <div className="undecided" role="group" aria-labelledby="undecided-h" data-testid="undecided">
      <p id="undecided-h">
        <strong>
          {u.likely
            ? `Likely ${top.title}, but the evidence does not rule out ${u.withTitle}.`
            : `Cannot tell between ${top.title} and ${u.withTitle} from the evidence.`}
        </strong>{" "}
        Check: <span data-testid="question">{u.question}</span>
        {step ? (
          <>
            {" "}
            (<Link href={`/runbooks/${step.id}${step.path?.length ? `?path=${step.path.join(".")}` : ""}`}>{step.title}</Link> asks it)
          </>
        ) : null}
      </p>
      {suggestion ? (
        <p className="small" data-testid="question-suggestion">
          Live data suggests <strong>{suggestion.answer}</strong>: {suggestion.signal} is {suggestion.state}
          {suggestion.evidence[0] ? ` on ${suggestion.evidence[0].subject}` : ""}. Check it before you answer.
        </p>
      ) : null}
      {u.options?.length && canAnswer ? (
        <div className="question-answers" role="group" aria-label="Answer the question">
          {u.options.map((o) => (
            <button
              key={`${o.label}-${o.to ?? o.leadsTo.join()}`}
              type="button"
              className={`button${suggestion?.answer === o.label ? " button-primary" : ""}`}
              disabled={answer.isPending}
              data-testid="question-answer"
              onClick={() =>
                answer.mutate(
                  step ? { runbookId: step.id, node: step.node, answer: o.label } : { choose: o.leadsTo[0], over: o.leadsTo[0] === top.id ? u.with : top.id },
                )
              }
            >
              {step ? o.label : `It is ${o.label}`}
              {step && o.leadsTo.length > 0 ? <span className="muted small"> → {o.leadsTo.map(titleOf).join(" or ")}</span> : null}
            </button>
          ))}
        </div>
      ) : u.options?.length ? (
        <p className="muted small">Answering it here needs the responder role.</p>
      ) : null}
      {answer.isPending ? <p className="small">Recording the answer…</p> : null}
      {answer.error ? (
        <p className="field-error" role="alert">
          Not recorded: {answer.error.message}
        </p>
      ) : null}
    </div>
  );
}
