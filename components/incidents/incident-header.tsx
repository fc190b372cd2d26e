import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ago, utc } from "@/components/ui/time";
import { SEVERITY_TONE, STATUS_TONE, toneOf } from "./tones";
import type { IncidentDetailView } from "./types";

/** `monitored`: Faultline watches the incident's cluster, so its name links to the cluster's page (an alert may name any cluster). */
export function IncidentHeader({ incident, now, monitored }: { incident: IncidentDetailView["incident"]; now: number; monitored: boolean }) {
  return (
    <header className="incident-header" data-testid="incident-header">
      <h1>
        <span className="muted">#{incident.id}</span> {incident.title}
      </h1>
      <p className="incident-badges">
        <Badge tone={toneOf(STATUS_TONE, incident.status)}>
          <span data-testid="incident-status">{incident.status}</span>
        </Badge>{" "}
        <Badge tone={toneOf(SEVERITY_TONE, incident.severity)}>{incident.severity}</Badge> cluster{" "}
        <strong>{monitored ? <Link href={`/clusters/${encodeURIComponent(incident.cluster)}`}>{incident.cluster}</Link> : incident.cluster}</strong> · opened by{" "}
        {incident.source === "alert" ? "an alert" : "a live signal"}: <code>{incident.signal}</code> on {incident.subject}
        {incident.reopenCount ? ` · reopened ${incident.reopenCount}×` : ""}
      </p>
      <dl className="facts incident-times">
        <dt>Opened</dt>
        <dd>
          {ago(incident.openedAt, now)} <span className="muted">({utc(incident.openedAt)})</span>
        </dd>
        {incident.reopenedAt ? (
          <>
            <dt>Reopened</dt>
            <dd>
              {ago(incident.reopenedAt, now)}{" "}
              <span className="muted">
                ({utc(incident.reopenedAt)}; {incident.reopenCount}× in all)
              </span>
            </dd>
          </>
        ) : null}
        <dt>Acknowledged</dt>
        <dd>
          {incident.acknowledgedAt ? (
            <>
              {ago(incident.acknowledgedAt, now)} by <strong>{incident.acknowledgedBy}</strong> <span className="muted">({utc(incident.acknowledgedAt)})</span>
            </>
          ) : (
            <span className="muted">not yet</span>
          )}
        </dd>
        <dt>Resolved</dt>
        <dd>
          {incident.resolvedAt ? (
            <>
              {ago(incident.resolvedAt, now)} by <strong>{incident.resolvedBy}</strong> <span className="muted">({utc(incident.resolvedAt)})</span>
              {incident.resolution ? <div className="resolution">{incident.resolution}</div> : null}
            </>
          ) : (
            <span className="muted">not yet</span>
          )}
        </dd>
      </dl>
    </header>
  );
}
