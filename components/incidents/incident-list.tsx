"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ago, utc } from "@/components/ui/time";
import { SEVERITY_TONE, STATUS_TONE, toneOf } from "./tones";
import { useLive, useNow } from "@/components/live/use-live";
import { incidentListQuery } from "@/components/queries/incidents";
import type { IncidentListView } from "./types";

interface Props {
  initial: IncidentListView;
  /** The normalised query string of the filters and cursor ("" for none). */
  search: string;
  now: number;
  pollMs: number;
  /** The clusters Faultline watches: their names link to their pages (an alert may name any cluster). */
  monitored: string[];
  empty: React.ReactNode;
}

/** The incident list, refetched when the server names a changed incident, and polled as a fallback. */
export function IncidentList({ initial, search, now: serverNow, pollMs, monitored, empty }: Props) {
  const pushed = useLive([{ kind: "incidents", queryKey: ["incidents", "list"] }]);
  const query = useQuery({ ...incidentListQuery(search), initialData: initial, refetchInterval: pushed ? pollMs * 10 : pollMs });
  const now = useNow(serverNow, 5_000);
  const { incidents: rows, next, counts } = query.data;
  const params = new URLSearchParams(search);
  const paged = params.has("cursor");
  return (
    <>
      <ListHead search={search} counts={counts} />
      {query.isError ? (
        <p className="callout" role="alert" data-testid="refresh-failed">
          Could not refresh the list ({query.error.message}); showing what was last loaded, {ago(new Date(query.dataUpdatedAt).toISOString(), now)}.
        </p>
      ) : null}
      {rows.length === 0 ? (
        empty
      ) : (
        <table className="data incidents" data-testid="incident-list">
          <thead>
            <tr>
              <th>Status</th>
              <th>Severity</th>
              <th>Incident</th>
              <th>Cluster</th>
              <th>Opened</th>
              <th>Top suspect</th>
              <th title="Fingerprints (signal on subject, or alert) in the incident">Signals</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid="incident-row" data-incident={row.id} data-status={row.status} className={`incident-${row.status}`}>
                <td data-label="Status">
                  <Badge tone={toneOf(STATUS_TONE, row.status)}>{row.status}</Badge>
                  {row.reopenCount ? <div className="muted small">reopened {row.reopenCount}×</div> : null}
                </td>
                <td data-label="Severity">
                  <Badge tone={toneOf(SEVERITY_TONE, row.severity)}>{row.severity}</Badge>
                </td>
                <td>
                  <Link href={`/incidents/${row.id}`} className="incident-title">
                    {row.title}
                  </Link>{" "}
                  <span className="muted">#{row.id}</span>
                  <div className="muted small">
                    {row.source === "alert" ? "alert" : "signal"} <code>{row.signal}</code> on {row.subject}
                  </div>
                </td>
                <td data-label="Cluster">
                  {monitored.includes(row.cluster) ? <Link href={`/clusters/${encodeURIComponent(row.cluster)}`}>{row.cluster}</Link> : row.cluster}
                </td>
                <td data-label="Opened">
                  {row.reopenedAt ? (
                    <>
                      reopened {ago(row.reopenedAt, now)}
                      <div className="muted small">{utc(row.reopenedAt)}</div>
                      <div className="muted small">first opened {ago(row.openedAt, now)}</div>
                    </>
                  ) : (
                    <>
                      {ago(row.openedAt, now)}
                      <div className="muted small">{utc(row.openedAt)}</div>
                    </>
                  )}
                  {row.resolvedAt ? <div className="muted small">resolved {ago(row.resolvedAt, now)}</div> : null}
                </td>
                <td data-label="Top suspect">
                  {row.topSuspect ? <Link href={`/catalog/${row.topSuspect.id}`}>{row.topSuspect.title}</Link> : <span className="muted">none yet</span>}
                </td>
                <td className="num" data-label="Signals">
                  {row.members}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {paged || next ? (
        <nav aria-label="Pages of the list">
          {paged ? (
            <Link className="button" href={pageHref(search)}>
              ← Newest
            </Link>
          ) : null}{" "}
          {next ? (
            <Link className="button" href={pageHref(search, next)} rel="next" data-testid="older">
              Older →
            </Link>
          ) : (
            <span className="muted">End of the list.</span>
          )}
        </nav>
      ) : null}
    </>
  );
}

/** The list with the same filters at a cursor (the first page without one). */
function pageHref(search: string, cursor?: string): string {
  const params = new URLSearchParams(search);
  params.delete("cursor");
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `/incidents?${query}` : "/incidents";
}

/** Incidents per status in the chosen clusters, each a link to that status (other filters kept, first page). */
function ListHead({ search, counts }: { search: string; counts: IncidentListView["counts"] }) {
  const params = new URLSearchParams(search);
  const where = params.get("cluster") ? `in ${params.get("cluster")}` : "in all clusters";
  const link = (status: string) => {
    const p = new URLSearchParams(search);
    p.delete("cursor");
    p.set("status", status);
    return `/incidents?${p.toString()}`;
  };
  return (
    <p className="muted incident-counts" data-testid="incident-counts">
      {(["open", "acknowledged", "resolved"] as const).map((status, i) => (
        <span key={status}>
          {i > 0 ? " · " : null}
          <Link href={link(status)}>
            {counts[status].toLocaleString("en")} {status}
          </Link>
        </span>
      ))}{" "}
      {where}
    </p>
  );
}
