"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import { signalsKey } from "@/components/live/decide";
import { useLive, useNow } from "@/components/live/use-live";
import { clusterHealthQuery, type LiveClusterHealth } from "@/components/queries/health";
import { incidentQuery } from "@/components/queries/incidents";
import { AlertGaps } from "./alert-gaps";
import { AlertWords } from "./alert-words";
import { ago } from "@/components/ui/time";
import { AcknowledgeButton, IncidentActions } from "./incident-actions";
import { IncidentHeader } from "./incident-header";
import { IncidentLogs } from "./incident-logs";
import { LiveSignals } from "./live-signals";
import { PastedEvidence } from "./pasted-evidence";
import { RunbookSessions } from "./runbook-sessions";
import { SuspectList } from "./suspect-list";
import { Timeline } from "./timeline";
import { WhatNow, type WhatNowSuspect } from "./what-now";
import type { RecoveryStep } from "@/lib/catalog/recovery";
import type { SignalLinks } from "@/lib/catalog/signal-links";
import type { IncidentDetailView } from "./types";

interface Props {
  initial: IncidentDetailView;
  links: SignalLinks;
  runbooks: { id: string; title: string }[];
  runbookTitles: Record<string, string>;
  /** Each suspect's first recovery step, by failure-mode id. */
  recoveries: Record<string, RecoveryStep>;
  /** Whether this server watches the incident's cluster (so its health events exist). */
  monitored: boolean;
  now: number;
  pollMs: number;
}

/**
 * One incident, live: refetched when a push names it, or when its cluster's pushed health shows its signals
 * otherwise than the incident's last answer does; polled as a fallback.
 */
export function IncidentView({ initial, links, runbooks, runbookTitles, recoveries, monitored, now: serverNow, pollMs }: Props) {
  const id = initial.incident.id;
  const cluster = initial.incident.cluster;
  const pushed = useLive([
    { kind: "incidents", queryKey: incidentQuery(id).queryKey, shows: [id] },
    ...(monitored ? [{ kind: "health" as const, cluster }] : []),
  ]);
  const query = useQuery({ ...incidentQuery(id), initialData: initial, refetchInterval: pushed ? pollMs * 5 : pollMs });
  const now = useNow(serverNow);
  const d = query.data;
  useRefetchWhenSignalsMove(d, monitored);
  const outcomes = Object.fromEntries(
    d.timeline.filter((e) => e.kind === "runbook_finished").map((e) => [Number(e.payload.sessionId), String(e.payload.label ?? e.payload.outcome)]),
  );
  return (
    <>
      <IncidentHeader incident={d.incident} now={now} monitored={monitored} />
      <WhatNow
        status={d.incident.status}
        suspect={whatNowSuspect(d.suspects)}
        step={d.suspects[0] ? recoveries[d.suspects[0].id] : undefined}
        acknowledge={<AcknowledgeButton id={id} status={d.incident.status} />}
      />
      {query.isError ? (
        <p className="callout" role="alert">
          Could not refresh ({query.error.message}); showing what was loaded {ago(new Date(query.dataUpdatedAt).toISOString(), now)}.
        </p>
      ) : null}
      {d.unreadable?.length ? (
        <div className="callout" role="alert" data-testid="unreadable">
          Left out because the stored value could not be read:
          <ul>
            {d.unreadable.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <AlertGaps gaps={d.alertGaps ?? []} />
      <AlertWords events={d.timeline} />
      <div className="incident-layout">
        <div className="incident-main">
          <section className="panel" aria-labelledby="suspects-h">
            <h2 id="suspects-h">Suspects</h2>
            <p className="muted small">Failure modes from the catalog, most likely first, and why.</p>
            <SuspectList suspects={d.suspects} incidentId={id} live={d.live} lastAnswer={d.timeline.findLast((e) => e.kind === "question_answered")} />
          </section>
          <PastedEvidence incidentId={id} />
          <section className="panel" aria-labelledby="runbooks-h">
            <h2 id="runbooks-h">Runbooks</h2>
            <RunbookSessions incidentId={id} sessions={d.sessions} runbooks={runbooks} titles={runbookTitles} outcomes={outcomes} />
          </section>
          <section className="panel" aria-labelledby="signals-h">
            <h2 id="signals-h">Its signals now</h2>
            <LiveSignals detail={d} links={links} monitored={monitored} />
          </section>
          <IncidentLogs incidentId={id} timeline={d.timeline} now={now} />
        </div>
        <aside className="incident-side">
          <section className="panel" aria-labelledby="actions-h">
            <h2 id="actions-h">Actions</h2>
            <IncidentActions id={id} status={d.incident.status} />
          </section>
          <section className="panel" aria-labelledby="export-h">
            <h2 id="export-h">Postmortem</h2>
            <p>
              <a className="button" href={`/api/v1/incidents/${id}/export?format=markdown`} download>
                Export Markdown
              </a>{" "}
              <a className="button" href={`/api/v1/incidents/${id}/export?format=json`} download>
                Export JSON
              </a>
            </p>
          </section>
        </aside>
      </div>
      <section className="panel" aria-labelledby="timeline-h">
        <h2 id="timeline-h">Timeline (newest first, UTC)</h2>
        <Timeline events={d.timeline} truncated={d.timelineTruncated} />
      </section>
    </>
  );
}

/** The first suspect as the first screen takes it. */
function whatNowSuspect(suspects: IncidentDetailView["suspects"]): WhatNowSuspect | undefined {
  const top = suspects[0];
  if (!top) return undefined;
  const u = top.undecided;
  return {
    id: top.id,
    title: top.title,
    confidence: top.confidence,
    of: suspects.length,
    undecided: u && {
      withTitle: u.withTitle,
      likely: u.likely,
      question: u.question,
      href: u.runbook ? `/runbooks/${u.runbook.id}${u.runbook.path?.length ? `?path=${u.runbook.path.join(".")}` : ""}` : undefined,
    },
  };
}

/** The cluster's health is kept by pushes alone here (never polled): when it reads the incident's signals otherwise than the incident does, refetch the incident. */
function useRefetchWhenSignalsMove(d: IncidentDetailView, monitored: boolean) {
  const queryClient = useQueryClient();
  const members = [...new Set(d.members.map((m) => m.signal))].join(" ");
  const select = useCallback(
    (h: LiveClusterHealth) => {
      const ids = new Set(members.split(" "));
      return signalsKey(h.signals.filter((s) => ids.has(s.id)).map((s) => ({ signal: s.id, subject: s.subject, state: s.state, detail: s.detail })));
    },
    [members],
  );
  const health = useQuery({ ...clusterHealthQuery(d.incident.cluster), enabled: false, select });
  const shown = signalsKey(d.live.signals);
  const id = d.incident.id;
  useEffect(() => {
    if (monitored && health.data !== undefined && health.data !== shown) void queryClient.invalidateQueries({ queryKey: incidentQuery(id).queryKey });
  }, [monitored, health.data, shown, id, queryClient]);
}
