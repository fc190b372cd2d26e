"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useState } from "react";
import { postJson } from "@/components/queries/http";
import { useCan } from "@/components/viewer";
import { ActorField } from "@/components/incidents/actor-field";
import { useLive } from "@/components/live/use-live";
import { clusterHealthQuery, type LiveClusterHealth } from "@/components/queries/health";
import type { WalkSession } from "@/lib/incidents/sessions/walk-session";
import { RunbookWalker, type WalkerProps } from "./runbook-walker";
import type { IncidentWalk, LiveSignal } from "./types";

/** The session, how often to poll, and the cluster's health when the page was rendered (none before its first reading). */
export type IncidentSessionInfo = Extract<WalkSession, { ok: true }> & { pollMs: number; health?: LiveClusterHealth };

/** The signals a step's suggestion reads, without their evidence (the server records that itself). */
const liveSignals = (health: LiveClusterHealth): LiveSignal[] =>
  health.signals.map(({ id, subject, state, detail }) => ({ id, subject, state, detail, evidence: null }));

/** Guided mode tied to an incident: live signals pre-answer questions, and each answer is recorded before the walk moves on. */
export function IncidentRunbookWalker({ session, ...walker }: WalkerProps & { session: IncidentSessionInfo }) {
  const canAnswer = useCan("responder");
  const [finished, setFinished] = useState(session.finished);
  const pushed = useLive(session.monitored ? [{ kind: "health", cluster: session.cluster }] : []);
  const live = useQuery({
    ...clusterHealthQuery(session.cluster),
    initialData: session.health,
    select: liveSignals,
    enabled: session.monitored,
    refetchInterval: pushed ? session.pollMs * 5 : session.pollMs,
  });
  const incidentHref = `/incidents/${session.incidentId}`;
  const record = useCallback(
    async (node: string, answer: string | undefined, note: string | undefined) => {
      const result = await postJson<{ session: { path: string[]; finishedAt: string | null } }>(
        `/api/v1/incidents/${session.incidentId}/runbook-sessions/${session.sessionId}/steps`,
        {
          node,
          ...(answer ? { answer } : {}),
          ...(note?.trim() ? { note } : {}),
        },
      );
      if (result.session.finishedAt) setFinished(true);
      return result.session.path;
    },
    [session.incidentId, session.sessionId],
  );
  const incident: IncidentWalk = {
    signals: live.data ?? session.signals,
    record,
    // A viewer reads the walk; answering is a responder's.
    finished: finished || !canAnswer,
    incidentHref,
    liveError: live.isError ? live.error.message : undefined,
  };
  return (
    <>
      <div className="incident-banner" role="region" aria-label="Incident" data-testid="incident-banner">
        <div>
          Walking this runbook for{" "}
          <Link href={incidentHref}>
            incident #{session.incidentId}: {session.title}
          </Link>{" "}
          <span className="muted">
            ({session.cluster}, {session.status})
          </span>
          . Every answer is recorded on its timeline with what live data showed.
          {finished ? <strong> This walk is finished.</strong> : null}
        </div>
        {finished ? null : canAnswer ? <ActorField /> : <p className="muted">Answering needs the responder role.</p>}
      </div>
      <RunbookWalker {...walker} incident={incident} />
    </>
  );
}
