"use client";

import Link from "next/link";
import { useCallback, useEffect, useMemo, useState } from "react";
import { afterPaint } from "@/lib/after-paint";
import { answerKeys, formatPath, nodeMap } from "@/lib/runbooks/walk";
import { Diagram } from "./diagram";
import { KindBadge, StepDetails } from "./step-details";
import type { RunbookClientData, Titles } from "./types";

interface Props {
  runbook: RunbookClientData;
  svg: string | null;
  flowchart: string;
  initialPath: string[];
  problem?: string;
  catalogTitles: Titles;
  runbookTitles: Titles;
}

/** Guided mode: one question at a time, the path in the URL, the diagram following along. */
export function RunbookWalker({ runbook, svg, flowchart, initialPath, problem, catalogTitles, runbookTitles }: Props) {
  const nodes = useMemo(() => nodeMap(runbook), [runbook]);
  const labels = useMemo(() => Object.fromEntries(runbook.nodes.map((n) => [n.id, n.label])), [runbook]);
  const [path, setPath] = useState<string[]>(initialPath);
  const [inspected, setInspected] = useState<string | null>(null);
  const current = nodes.get(path[path.length - 1])!;
  const inspectedNode = inspected ? nodes.get(inspected) : undefined;

  const go = useCallback((next: string[]) => {
    setPath(next);
    setInspected(null);
    // Next's router re-syncs on every history change; doing it once the new step is painted keeps
    // that work out of the time between the answer and the next question.
    afterPaint(() => {
      const url = new URL(window.location.href);
      url.searchParams.set("path", formatPath(next));
      window.history.replaceState(window.history.state, "", url);
    });
  }, []);
  const answer = useCallback((to: string) => go([...path, to]), [go, path]);
  const back = useCallback(() => path.length > 1 && go(path.slice(0, -1)), [go, path]);

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
      } else if ((event.key === "Enter" || event.key === "ArrowRight") && current.next.length === 1 && target?.tagName !== "BUTTON" && target?.tagName !== "A") {
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
        <Diagram svg={svg} flowchart={flowchart} path={path} current={current.id} inspected={inspected} labels={labels} onNodeClick={setInspected} />
        <p className="muted hint">Select a step in the diagram to read it. Keys: {keyHint(keys)}, Back ← or Backspace, Esc closes a step.</p>
      </section>

      <section className="runbook-panel" aria-label="Guided mode">
        {problem ? (
          <div className="callout" role="alert" data-testid="path-problem">
            This link&apos;s path could not be followed all the way: {problem}.
          </div>
        ) : null}

        {inspectedNode ? (
          <div className="panel step-panel" data-testid="inspected-step" role="dialog" aria-label={`Step ${inspectedNode.id}`}>
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
            <KindBadge kind={current.kind} /> <span className="muted">Step {path.length} · node {current.id}</span>
          </div>
          <h2 data-testid="current-label">{current.label}</h2>
          <StepDetails node={current} catalogTitles={catalogTitles} runbookTitles={runbookTitles} />
          <div className="answers" role="group" aria-label="Answers">
            {current.next.length > 1 || current.next[0]?.label
              ? current.next.map((n, i) => (
                  <button key={n.to} type="button" className="button button-primary answer" onClick={() => answer(n.to)}>
                    <kbd>{keys[i].toUpperCase()}</kbd> {n.label ?? "Next"}
                  </button>
                ))
              : current.next.map((n) => (
                  <button key={n.to} type="button" className="button button-primary answer" onClick={() => answer(n.to)}>
                    <kbd>Enter</kbd> {current.kind === "start" ? "Start" : "Done, next step"}
                  </button>
                ))}
            {current.next.length === 0 ? (
              <p className="end-note">
                {current.kind === "action" ? "This is the fix. " : "This is where the tree ends. "}
                {current.catalog.length === 0 && current.runbooks.length === 0 ? "If it did not help, go back and check your answers." : null}
              </p>
            ) : null}
          </div>
          <div className="walk-controls">
            <button type="button" className="button" onClick={back} disabled={path.length <= 1}>
              ← Back
            </button>
            <button type="button" className="button" onClick={() => go([runbook.root])} disabled={path.length <= 1}>
              Start over
            </button>
          </div>
        </div>

        <nav className="panel trail" aria-label="Path taken">
          <h3>Path taken</h3>
          <ol>
            {path.map((id, i) => {
              const answerLabel = i > 0 ? nodes.get(path[i - 1])!.next.find((n) => n.to === id)?.label : undefined;
              return (
                <li key={`${id}-${i}`}>
                  {answerLabel ? <span className="answer-taken">{answerLabel} → </span> : null}
                  {i < path.length - 1 ? (
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
            This page&apos;s address holds the path: share it to hand over at this step.{" "}
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
