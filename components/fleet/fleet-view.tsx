"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLive, useNow } from "@/components/live/use-live";
import { fleetQuery, type FleetData } from "@/components/queries/fleet";
import { Badge, type Tone } from "@/components/ui/badge";
import { ago, span, utc } from "@/components/ui/time";
import { fleetSearch, matchesFleetFilter, type FleetFilter } from "@/lib/fleet/fleet-filter";
import { FLEET_STATES, sortFleet, type FleetRow, type FleetState } from "@/lib/fleet/fleet-row";

// The fleet, worst first, kept current by the fleet's pushes (every row when the stream opens, then the rows that
// changed): the browser sorts and filters what it holds, so a cluster that turns critical moves up without a reload.
// One compact row per cluster: 100 of them are the page's whole weight.

export const STATE_TONE: Record<FleetState, Tone> = { critical: "red", warning: "orange", unknown: "orange", stale: "grey", ok: "green" };

interface Props {
  initial: FleetData;
  filter: FleetFilter;
  /** The server's render time, so the first render matches. */
  now: number;
  pollMs: number;
}

export function FleetView({ initial, filter, now: serverNow, pollMs }: Props) {
  const pushed = useLive([{ kind: "fleet" }]);
  // Stale clusters and every change are pushed: polling only stands in while the stream is down.
  const query = useQuery({ ...fleetQuery(), initialData: initial, refetchInterval: pushed ? false : pollMs, refetchOnWindowFocus: !pushed });
  const now = useNow(serverNow, 5_000);
  const rows = sortFleet(query.data.rows);
  const shown = rows.filter((row) => matchesFleetFilter(row, filter));
  const filtered = filter.states.length > 0 || filter.terms.length > 0;
  return (
    <>
      <StateCounts rows={rows} filter={filter} shown={filtered ? shown.length : undefined} />
      {query.data.storeDown ? (
        <p className="callout" data-testid="fleet-store-down">
          The incident store could not be read ({query.data.storeDown}): the states are live, but incidents and how long each state has lasted are not known.
        </p>
      ) : null}
      {query.isError ? (
        <p className="callout" role="alert">
          Could not refresh the fleet ({query.error.message}); showing what was last loaded, {ago(new Date(query.dataUpdatedAt).toISOString(), now)}.
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="callout">No cluster is being watched: set FAULTLINE_CLUSTERS_FILE, or leave FAULTLINE_DEMO on.</p>
      ) : shown.length === 0 ? (
        <p className="empty" data-testid="fleet-empty">
          No cluster matches this filter. <Link href="/fleet">Show every cluster</Link>
        </p>
      ) : (
        <table className="data fleet" data-testid="fleet">
          <thead>
            <tr>
              <th>Cluster</th>
              <th>State</th>
              <th>Failing</th>
              <th>Incidents</th>
              <th>Last read</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <Row key={row.name} row={row} now={now} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Row({ row, now }: { row: FleetRow; now: number }) {
  const labels = Object.entries(row.labels);
  return (
    <tr data-cluster={row.name} data-state={row.state}>
      <td>
        <Link href={`/clusters/${encodeURIComponent(row.name)}`}>{row.name}</Link>
        {row.simulated ? " (simulated)" : null}
        {labels.length > 0 ? <span className="sub">{labels.map(([k, v]) => `${k}=${v}`).join(" ")}</span> : null}
        <span className="sub">{row.line}</span>
      </td>
      <td data-label="State">
        <Badge tone={STATE_TONE[row.state]}>{row.state}</Badge>
        {row.since ? <span className="sub">{`for ${span(row.since, now)}`}</span> : null}
      </td>
      <td data-label="Failing">
        {row.failing.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          [
            ...row.failing.map((f) => (f.count > 1 ? `${f.component} ×${f.count}` : f.component)),
            ...(row.moreFailing > 0 ? [`+${row.moreFailing} more`] : []),
          ].join(", ")
        )}
      </td>
      <td data-label="Incidents">
        <Incidents row={row} />
      </td>
      <td data-label="Last read">
        {row.state === "stale" && row.readAt ? (
          <>
            {ago(row.readAt, now)}
            <span className="sub">{utc(row.readAt)}</span>
          </>
        ) : row.readAt ? (
          "live"
        ) : (
          <span className="muted">not yet</span>
        )}
      </td>
    </tr>
  );
}

function Incidents({ row }: { row: FleetRow }) {
  const incidents = row.incidents;
  if (!incidents) return <span className="muted">not known</span>;
  if (!incidents.top) return <span className="muted">none</span>;
  const { top } = incidents;
  return (
    <>
      <Link href={`/incidents?cluster=${encodeURIComponent(row.name)}`}>{`${incidents.open} unresolved`}</Link>
      <span className="sub">
        {top.suspect ? "top suspect: " : null}
        <Link href={`/incidents/${top.id}`}>{top.suspect ? top.suspect.title : `incident #${top.id}`}</Link>
        {top.suspect ? null : ", no suspect yet"}
      </span>
    </>
  );
}

/** How many clusters are in each state, each a link to the fleet filtered to it (the words searched for kept). */
function StateCounts({ rows, filter, shown }: { rows: FleetRow[]; filter: FleetFilter; shown: number | undefined }) {
  return (
    <p className="muted fleet-counts" data-testid="fleet-counts">
      {`${rows.length.toLocaleString("en")} ${rows.length === 1 ? "cluster" : "clusters"}${shown !== undefined ? `, ${shown.toLocaleString("en")} shown` : ""}: `}
      {FLEET_STATES.map((state, i) => (
        <span key={state}>
          {i > 0 ? " · " : null}
          <Link href={`/fleet?${fleetSearch({ states: [state], terms: filter.terms })}`}>
            {`${rows.filter((row) => row.state === state).length.toLocaleString("en")} ${state}`}
          </Link>
        </span>
      ))}
    </p>
  );
}
