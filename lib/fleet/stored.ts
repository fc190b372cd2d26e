import "server-only";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { SignalStatus } from "@/lib/signals/signal-model";
import { oneLine, TITLE_LENGTH, type FleetIncidents, type StateSince } from "./fleet-row";

// What the fleet view reads from PostgreSQL, two queries for any number of clusters: each cluster's unresolved
// incidents (the first one with its top suspect), and since when its signals are in their states.

interface IncidentRow {
  cluster: string;
  id: number;
  severity: string;
  open: bigint;
  suspectId: string | null;
  suspectTitle: string | null;
}

/** Per cluster: its unresolved incidents counted, and the one the incident list puts first (attention, then newest). */
export async function readFleetIncidents(db: PrismaClient, clusters: string[]): Promise<Map<string, FleetIncidents>> {
  const rows = await db.$queryRaw<IncidentRow[]>`
    SELECT DISTINCT ON (i."cluster") i."cluster", i."id", i."severity",
           count(*) OVER (PARTITION BY i."cluster") AS "open",
           i."suspects"->0->>'id' AS "suspectId", i."suspects"->0->>'title' AS "suspectTitle"
    FROM "incidents" i
    WHERE i."status" IN ('open', 'acknowledged') AND i."cluster" = ANY(${clusters}::text[])
    ORDER BY i."cluster", i."attention" DESC, i."listed_at" DESC, i."id" DESC`;
  const found = new Map(
    rows.map((r) => [
      r.cluster,
      {
        open: Number(r.open),
        top: {
          id: r.id,
          severity: r.severity,
          suspect: r.suspectId ? { id: r.suspectId, title: oneLine(r.suspectTitle ?? r.suspectId, TITLE_LENGTH) } : null,
        },
      },
    ]),
  );
  return new Map(clusters.map((c) => [c, found.get(c) ?? { open: 0, top: null }]));
}

/** The signals a cluster shows in its worst state (not ok), whose stored start is asked for. */
export interface SinceAsked {
  cluster: string;
  state: SignalStatus;
  signals: { id: string; subject: string }[];
}

/**
 * Since when: for a state that is not ok, the earliest stored start among the given signals still stored in that
 * state (a signal gone from the cluster keeps its last row, so only those it shows now count); for a cluster that
 * is ok, the latest start of its `ok` rows: its last recovery.
 */
export async function readStateSince(db: PrismaClient, asked: SinceAsked[], ok: string[]): Promise<Map<string, StateSince>> {
  const wanted = asked.flatMap((a) => a.signals.map((s) => ({ cluster: a.cluster, state: a.state, ...s })));
  const rows = await db.$queryRaw<{ cluster: string; state: SignalStatus; since: Date }[]>`
    SELECT s."cluster", s."state", min(s."since") AS "since"
    FROM "signal_states" s
    JOIN unnest(${wanted.map((w) => w.cluster)}::text[], ${wanted.map((w) => w.id)}::text[], ${wanted.map((w) => w.subject)}::text[],
                ${wanted.map((w) => w.state)}::text[]) AS w("cluster", "signal", "subject", "state")
      ON s."cluster" = w."cluster" AND s."signal" = w."signal" AND s."subject" = w."subject" AND s."state" = w."state"
    GROUP BY s."cluster", s."state"
    UNION ALL
    SELECT s."cluster", 'ok', max(s."since") FROM "signal_states" s
    WHERE s."cluster" = ANY(${ok}::text[]) AND s."state" = 'ok'
    GROUP BY s."cluster"`;
  const since = new Map<string, StateSince>();
  for (const r of rows) since.set(r.cluster, { ...since.get(r.cluster), [r.state]: r.since.toISOString() });
  return since;
}
