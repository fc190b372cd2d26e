"use client";

import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { afterPaint } from "@/lib/after-paint";
import { suggestAnswer } from "@/lib/incidents/suspects/suggest";
import { answerKeys, formatPath, nodeMap } from "@/lib/runbooks/walk";
import { Diagram } from "./diagram";
import { IncidentStepHelp } from "./incident-step-help";
import { useStepRecorder } from "./use-step-recorder";
import { KindBadge, StepDetails } from "./step-details";
import type { IncidentWalk, RunbookClientData, Titles } from "./types";

export interface WalkerProps {
  runbook: RunbookClientData;
  svg: string | null;
  flowchart: string;
  initialPath: string[];
  problem?: string;
  catalogTitles: Titles;
  runbookTitles: Titles;
}

/** Guided mode: one question at a time, the path in the URL, the diagram following along. */
export function RunbookWalker({
  runbook,
  svg,
  flowchart,
  initialPath,
  problem,
  catalogTitles,
  runbookTitles,
  incident,
}: WalkerProps & { incident?: IncidentWalk }) {
  const nodes = useMemo(() => nodeMap(runbook), [runbook]);
  const labels = useMemo(() => Object.fromEntries(runbook.nodes.map((n) => [n.id, n.label])), [runbook]);
  const [path, setPath] = useState<string[]>(initialPath);
  const [inspected, setInspected] = useState<string | null>(null);
  const current = nodes.get(path[path.length - 1])!;
  const inspectedNode = inspected ? nodes.get(inspected) : undefined;
  const { pending, failure, note, setNote, submit } = useStepRecorder(incident);
  const suggestion = incident ? suggestAnswer(current, incident.signals) : undefined;
  const suggestedRef = useRef<HTMLButtonElement>(null);

  const go = useCallback(
    (next: string[]) => {
      setPath(next);
      setInspected(null);
      // Next's router re-syncs on every history change; doing it once the new step is painted keeps
      // that work out of the time between the answer and the next question.
      if (incident) return; // the session holds the path, not the address
      afterPaint(() => {
        const url = new URL(window.location.href);
        url.searchParams.set("path", formatPath(next));
        window.history.replaceState(window.history.state, "", url);
      });
    },
    [incident],
  );
  const answer = useCallback(
    (to: string) => (incident ? submit(current.id, current.next.find((n) => n.to === to)?.label, go) : go([...path, to])),
    [go, path, incident, submit, current.id, current.next],
  );
  const back = useCallback(() => !incident && path.length > 1 && go(path.slice(0, -1)), [go, path, incident]);
  useEffect(() => {
    if (suggestion) suggestedRef.current?.focus({ preventScroll: true });
  }, [current.id, suggestion?.answer]); // eslint-disable-line react-hooks/exhaustive-deps -- focus when the step or the suggestion changes, not on every render

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      if (event.key === "Escape") {
        if (inspected) setInspected(null);
        return;
      }
      if (event.key === "Backspace" || event.key === "ArrowLeft" || event.key === "b") {
        event.preventDefault();
        back();
        return;
      }
      const keys = answerKeys(current.next);
      const index = keys.indexOf(event.key.toLowerCase());
      if (index >= 0) {
        event.preventDefault();
        answer(current.next[index].to);
      } else if (
        (event.key === "Enter" || event.key === "ArrowRight") &&
        current.next.length === 1 &&
        target?.tagName !== "BUTTON" &&
        target?.tagName !== "A"
      ) {
        event.preventDefault();
        answer(current.next[0].to);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [answer, back, current, inspected]);

  const keys = answerKeys(current.next);
  return (
    <div className="runbook-layout">
      <section className="runbook-diagram" aria-label="Diagram">
        <Diagram svg={svg} flowchart={flowchart} path={path} current={current.id} inspected={inspected} onNodeClick={setInspected} />
        <p className="muted hint">
          Select a step in the diagram to read it. Keys: {keyHint(keys)}
          {incident ? "" : ", Back ← or Backspace"}, Esc closes a step.
        </p>
      </section>

      <section className="runbook-panel" aria-label="Guided mode">
        {problem ? (
          <div className="callout" role="alert" data-testid="path-problem">
            This link&apos;s path could not be followed all the way: {problem}.
          </div>
        ) : null}

        {inspectedNode ? (
          <div
            key={inspectedNode.id}
            // On a phone the diagram sits below the steps: a tapped node's step is brought into view.
            ref={(panel) => panel?.scrollIntoView({ block: "nearest" })}
            className="panel step-panel"
            data-testid="inspected-step"
            role="dialog"
            aria-label={`Step ${inspectedNode.id}`}
          >
            <div className="panel-head">
              <KindBadge kind={inspectedNode.kind} /> <span className="muted">Step {inspectedNode.id}</span>
              <button type="button" className="button close" onClick={() => setInspected(null)} aria-label="Close step (Escape)">
                Close
              </button>
            </div>
            <h2>{inspectedNode.label}</h2>
            <StepDetails node={inspectedNode} catalogTitles={catalogTitles} runbookTitles={runbookTitles} />
            {inspectedNode.id !== current.id ? (
              <p className="muted">This step is not where your walk is; close it to carry on from step {current.id}.</p>
            ) : null}
          </div>
        ) : null}

        <div className={`panel step-panel current-step${inspectedNode ? " dimmed" : ""}`} data-testid="current-step" aria-live="polite">
          <div className="panel-head">
            <KindBadge kind={current.kind} />{" "}
            <span className="muted">
              Step {path.length} · node {current.id}
            </span>
          </div>
          <h2 data-testid="current-label">{current.label}</h2>
          <StepDetails node={current} catalogTitles={catalogTitles} runbookTitles={runbookTitles} />
          {incident ? (
            <IncidentStepHelp suggestion={suggestion} liveError={incident.liveError} note={note} setNote={setNote} atLeaf={current.next.length === 0} />
          ) : null}
          <div className="answers" role="group" aria-label="Answers" aria-busy={pending || undefined}>
            {current.next.length > 1 || current.next[0]?.label
              ? current.next.map((n, i) => {
                  const suggested = suggestion && n.label === suggestion.answer;
                  return (
                    <button
                      key={n.to}
                      ref={suggested ? suggestedRef : undefined}
                      type="button"
                      className={`button button-primary answer${suggested ? " suggested" : ""}`}
                      onClick={() => answer(n.to)}
                      disabled={pending}
                    >
                      <kbd>{keys[i].toUpperCase()}</kbd> {n.label ?? "Next"}
                      {suggested ? <span className="suggested-mark"> (live data)</span> : null}
                    </button>
                  );
                })
              : current.next.map((n) => (
                  <button key={n.to} type="button" className="button button-primary answer" onClick={() => answer(n.to)} disabled={pending}>
                    <kbd>Enter</kbd> {current.kind === "start" ? "Start" : "Done, next step"}
                  </button>
                ))}
            {pending ? <span className="muted">Recording…</span> : null}
            {failure ? (
              <p className="field-error" role="alert" data-testid="step-failed">
                Not recorded, so the walk stays here: {failure}
              </p>
            ) : null}
            {incident && current.next.length === 0 ? (
              <p className="end-note" data-testid="runbook-finished">
                <strong>Runbook finished</strong> — <Link href={incident.incidentHref}>back to the incident</Link> to resolve it or add a note.
              </p>
            ) : current.next.length === 0 ? (
              <p className="end-note">
                {current.kind === "action" ? "This is the fix. " : "This is where the tree ends. "}
                {current.catalog.length === 0 && current.runbooks.length === 0 ? "If it did not help, go back and check your answers." : null}
              </p>
            ) : null}
          </div>
          {incident ? (
            <p className="muted small walk-controls">
              No Back or Start over here: the path is the incident&apos;s record. If an answer was wrong, say so in a note on the incident, or start the runbook
              again from there.
            </p>
          ) : (
            <div className="walk-controls">
              <button type="button" className="button" onClick={back} disabled={path.length <= 1}>
                ← Back
              </button>
              <button type="button" className="button" onClick={() => go([runbook.root])} disabled={path.length <= 1}>
                Start over
              </button>
            </div>
          )}
        </div>

        <nav className="panel trail" aria-label="Path taken">
          <h3>Path taken</h3>
          <ol>
            {path.map((id, i) => {
              const answerLabel = i > 0 ? nodes.get(path[i - 1])!.next.find((n) => n.to === id)?.label : undefined;
              return (
                <li key={`${id}-${i}`}>
                  {answerLabel ? <span className="answer-taken">{answerLabel} → </span> : null}
                  {i < path.length - 1 && !incident ? (
                    <button type="button" className="linklike" onClick={() => go(path.slice(0, i + 1))}>
                      {labels[id]}
                    </button>
                  ) : (
                    <strong>{labels[id]}</strong>
                  )}
                </li>
              );
            })}
          </ol>
          <p className="muted share">
            {incident
              ? "The incident holds the path: share this page's address to hand over at this step. "
              : "This page's address holds the path: share it to hand over at this step. "}
            <Link href={`/runbooks/${runbook.id}/print`}>Print view</Link>
          </p>
        </nav>
      </section>
    </div>
  );
}

function keyHint(keys: string[]): string {
  if (keys.length === 0) return "none at a leaf";
  return keys.map((k) => k.toUpperCase()).join(" / ");
}
