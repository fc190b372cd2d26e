"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { postJson } from "@/components/queries/http";
import { incidentLogsQuery } from "@/components/queries/incidents";
import { Badge } from "@/components/ui/badge";
import { ago, utc } from "@/components/ui/time";
import { useCan } from "@/components/viewer";
import type { LogSourceView } from "@/lib/incidents/evidence/log-evidence";
import type { TimelineEvent } from "./types";

// "What the logs say": per source (a container's tail, its previous instance, a journal), the lines with an error
// class first, the classes found, the bytes read and when; a source that could not be read says why. Refetched
// when a reading lands on the timeline; a responder can read them again.

const LINES_SHOWN = 12;

export function IncidentLogs({ incidentId, timeline, now }: { incidentId: number; timeline: TimelineEvent[]; now: number }) {
  const version = String(timeline.find((e) => e.kind === "evidence_added" || e.kind === "logs_unread")?.id ?? 0);
  const query = useQuery(incidentLogsQuery(incidentId, version));
  const queryClient = useQueryClient();
  const canRead = useCan("responder");
  const read = useMutation({
    mutationFn: () => postJson(`/api/v1/incidents/${incidentId}/logs`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["incidents"] }),
  });
  const sources = query.data?.sources ?? [];
  return (
    <section className="panel" aria-labelledby="logs-h" data-testid="incident-logs">
      <h2 id="logs-h">What the logs say</h2>
      <p className="muted small">
        The tails of the KMS plugin and kube-apiserver containers (and a plugin unit&apos;s journal) on the nodes this incident names, read when it opened;
        secrets are hidden.
        {query.data ? ` ${formatBytes(query.data.bytes)} read.` : null}
      </p>
      {query.isPending ? <p className="muted">Loading the log readings…</p> : null}
      {query.isError ? <p role="alert">Could not load the log readings ({query.error.message}).</p> : null}
      {query.data && sources.length === 0 ? <p className="muted">No log has been read for this incident yet.</p> : null}
      {sources.map((s) => (
        <LogSource key={s.key} source={s} now={now} />
      ))}
      {canRead ? (
        <p>
          <button type="button" className="button" disabled={read.isPending} onClick={() => read.mutate()}>
            {read.isPending ? "Reading the logs…" : "Read the logs again"}
          </button>
          {read.error ? (
            <span className="field-error" role="alert">
              {" "}
              Not read: {read.error.message}
            </span>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

function LogSource({ source, now }: { source: LogSourceView; now: number }) {
  const { read, refused } = source;
  const lines = read?.lines ?? [];
  return (
    <div className="log-source" data-testid="log-source" data-key={source.key}>
      <h3 className="small">
        {source.source} <Badge tone="grey">{source.kind === "journal" ? "journal" : "pod log"}</Badge>
      </h3>
      {refused ? (
        <p className="field-error" data-testid="log-refused">
          refused: {refused.reason} <span className="muted">({ago(refused.at, now)})</span>
        </p>
      ) : null}
      {read ? (
        <>
          <p className="muted small">
            {read.classes.length > 0 ? (
              <>
                {read.classes.map((c) => (
                  <Badge key={c.id} tone="red" title={c.id}>
                    {c.title}
                  </Badge>
                ))}{" "}
              </>
            ) : (
              "no error the catalog knows; "
            )}
            {formatBytes(read.bytes)} read {ago(read.at, now)} ({utc(read.at)}) by {read.actor}
            {refused ? "; the reading below is the last good one" : ""}
          </p>
          {lines.length > 0 ? (
            // Focusable, so a keyboard can scroll the tail it shows (axe scrollable-region-focusable).
            <pre className="log-lines" tabIndex={0} role="group" aria-label={`Log of ${source.source}`}>
              {lines.slice(0, LINES_SHOWN).map((l, i) => (
                <span key={i} className={l.classes.length > 0 ? "log-telling" : undefined} data-telling={l.classes.length > 0 || undefined}>
                  {l.text}
                  {"\n"}
                </span>
              ))}
            </pre>
          ) : (
            <p className="muted small">The log was empty in the window read.</p>
          )}
          {lines.length > LINES_SHOWN ? <p className="muted small">{lines.length - LINES_SHOWN} more lines kept (telling lines first).</p> : null}
        </>
      ) : null}
    </div>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
