"use client";

import { useState } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { clock, utc } from "@/components/ui/time";
import type { TimelineEvent } from "./types";

const KIND: Record<string, { label: string; tone: Tone }> = {
  status_change: { label: "status", tone: "purple" },
  signal_transition: { label: "signal", tone: "orange" },
  member_joined: { label: "signal joined", tone: "orange" },
  severity_changed: { label: "severity", tone: "red" },
  note: { label: "note", tone: "grey" },
  runbook_started: { label: "runbook", tone: "green" },
  runbook_step: { label: "runbook step", tone: "green" },
  runbook_finished: { label: "runbook end", tone: "green" },
  question_answered: { label: "answered", tone: "green" },
  suspects_changed: { label: "suspects", tone: "grey" },
  title_changed: { label: "title", tone: "purple" },
  alert_received: { label: "alert", tone: "red" },
  alert_resolved: { label: "alert resolved", tone: "green" },
  alerts_truncated: { label: "alerts left out", tone: "orange" },
  alerts_refused: { label: "alerts refused", tone: "red" },
  evidence_added: { label: "evidence", tone: "purple" },
  logs_unread: { label: "logs unread", tone: "orange" },
  notification_sent: { label: "notified", tone: "green" },
  notification_retrying: { label: "notify retrying", tone: "orange" },
  notification_failed: { label: "notify failed", tone: "red" },
};

const SHOWN = 40;

/** The incident's history, newest first: time, what kind, who, what; the details that matter per kind. */
export function Timeline({ events, truncated }: { events: TimelineEvent[]; truncated: boolean }) {
  const [all, setAll] = useState(false);
  const newestFirst = [...events].reverse().slice(0, all ? undefined : SHOWN);
  return (
    <>
      <ol className="timeline" data-testid="timeline">
        {newestFirst.map((e) => {
          const kind = KIND[e.kind] ?? { label: e.kind, tone: "grey" as Tone };
          return (
            <li key={e.id} data-kind={e.kind}>
              <time dateTime={e.at} title={utc(e.at)}>
                {clock(e.at)}
              </time>
              <span className="kind">
                <Badge tone={kind.tone}>{kind.label}</Badge>
              </span>
              <span className="who">{e.actor}</span>
              <div className="what">
                {e.kind === "note" ? <p className="note-text">{String(e.payload.text ?? e.summary)}</p> : e.summary}
                <Details event={e} />
              </div>
            </li>
          );
        })}
      </ol>
      {!all && events.length > SHOWN ? (
        <button type="button" className="button" onClick={() => setAll(true)}>
          Show all {events.length} events
        </button>
      ) : null}
      {truncated ? <p className="muted small">Older events are left out here; the JSON export has them all.</p> : null}
    </>
  );
}

function Details({ event }: { event: TimelineEvent }) {
  const p = event.payload;
  if (event.kind === "signal_transition" && p.detail) return <div className="muted small">{String(p.detail)}</div>;
  if (event.kind.startsWith("notification_")) return <NotificationDetails payload={p} />;
  if (event.kind !== "runbook_step") return null;
  const step = event.step;
  if (!step) return null;
  return (
    <div className="step-record small">
      {step.suggested ? (
        <div>
          Live data suggested <strong>{step.suggested.answer}</strong> ({step.suggested.signal} {step.suggested.state})
          {step.followedSuggestion === false ? (
            <>
              {" "}
              <Badge tone="orange">overridden by the on-call</Badge>
            </>
          ) : (
            "; the on-call agreed"
          )}
          <ul className="evidence">
            {step.suggested.evidence.map((x) => (
              <li key={x.subject}>
                {x.subject} {x.state}: {x.detail}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {step.note ? <div>Note: {step.note}</div> : null}
      {step.evidence ? <div className="muted">Attached: {typeof step.evidence === "string" ? step.evidence : JSON.stringify(step.evidence)}</div> : null}
    </div>
  );
}

/** One delivery attempt of a notification (lib/notifications): to whom, the receiver's answer, when it tries again. */
function NotificationDetails({ payload }: { payload: Record<string, unknown> }) {
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);
  const parts = [
    text(payload.receiver) && `to ${text(payload.receiver)}`,
    text(payload.attempt) && `attempt ${text(payload.attempt)}`,
    text(payload.httpStatus) && `HTTP ${text(payload.httpStatus)}`,
    text(payload.retryInSeconds) && `next try in ${text(payload.retryInSeconds)} s`,
  ].filter(Boolean);
  return (
    <div className="muted small" data-testid="notification-attempt">
      {parts.join(" · ")}
      {text(payload.idempotencyKey) ? (
        <>
          {" "}
          · key <code>{text(payload.idempotencyKey)}</code>
        </>
      ) : null}
    </div>
  );
}
