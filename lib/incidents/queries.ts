import { Prisma } from "@/lib/db/generated/client";
import type { Db } from "./tx";

// Reads for the API and the pages. Lists put what needs attention first: open, then acknowledged, then
// resolved; within each, the most severe, then the newest.

export const STATUSES = ["open", "acknowledged", "resolved"] as const;
export const SEVERITIES = ["critical", "warning", "info"] as const;

export interface IncidentFilter {
  cluster?: string[];
  status?: (typeof STATUSES)[number][];
  severity?: (typeof SEVERITIES)[number][];
  limit?: number;
}

export interface IncidentSummary {
  id: number;
  cluster: string;
  title: string;
  severity: string;
  status: string;
  source: string;
  signal: string;
  subject: string;
  openedAt: Date;
  acknowledgedAt: Date | null;
  resolvedAt: Date | null;
  reopenedAt: Date | null;
  lastSeenAt: Date;
  reopenCount: number;
  members: number;
  topSuspect: { id: string; title: string } | null;
}

export async function listIncidents(db: Db, filter: IncidentFilter = {}): Promise<IncidentSummary[]> {
  const where: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filter.cluster?.length) where.push(Prisma.sql`i."cluster" IN (${Prisma.join(filter.cluster)})`);
  if (filter.status?.length) where.push(Prisma.sql`i."status" IN (${Prisma.join(filter.status)})`);
  if (filter.severity?.length) where.push(Prisma.sql`i."severity" IN (${Prisma.join(filter.severity)})`);
  const rows = await db.$queryRaw<(Omit<IncidentSummary, "members" | "topSuspect"> & { members: bigint; top: { id: string; title: string } | null })[]>`
    SELECT i."id", i."cluster", i."title", i."severity", i."status", i."source", i."signal", i."subject", i."opened_at" AS "openedAt",
           i."acknowledged_at" AS "acknowledgedAt", i."resolved_at" AS "resolvedAt", i."reopened_at" AS "reopenedAt", i."last_seen_at" AS "lastSeenAt", i."reopen_count" AS "reopenCount",
           (SELECT count(*) FROM "incident_members" m WHERE m."incident_id" = i."id") AS "members",
           CASE WHEN jsonb_array_length(i."suspects") > 0 THEN jsonb_build_object('id', i."suspects"->0->'id', 'title', i."suspects"->0->'title') END AS "top"
    FROM "incidents" i
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY CASE i."status" WHEN 'open' THEN 0 WHEN 'acknowledged' THEN 1 ELSE 2 END,
             CASE i."severity" WHEN 'critical' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END,
             COALESCE(i."reopened_at", i."opened_at") DESC, i."id" DESC
    LIMIT ${Math.min(Math.max(filter.limit ?? 100, 1), 500)}`;
  return rows.map(({ top, members, ...row }) => ({ ...row, members: Number(members), topSuspect: top }));
}

const TIMELINE_LIMIT = 2_000;

/** One incident with its fingerprints, timeline (oldest first, the latest 2,000), suspects and runbook sessions. */
export async function getIncident(db: Db, id: number) {
  const incident = await db.incident.findUnique({ where: { id }, include: { members: { orderBy: { id: "asc" } }, sessions: { orderBy: { id: "asc" } } } });
  if (!incident) return undefined;
  const total = await db.incidentEvent.count({ where: { incidentId: id } });
  const events = (await db.incidentEvent.findMany({ where: { incidentId: id }, orderBy: { id: "desc" }, take: TIMELINE_LIMIT })).reverse();
  // Alerts a delivery left out or Faultline refused: shown above the timeline, however many events came after.
  const gaps = await db.incidentEvent.findMany({
    where: { incidentId: id, kind: { in: ["alerts_truncated", "alerts_refused"] } },
    orderBy: { id: "desc" },
    take: 5,
  });
  const { members, sessions, ...rest } = incident;
  return {
    incident: rest,
    members,
    timeline: events.map((e) => ({ id: Number(e.id), at: e.at, kind: e.kind, actor: e.actor, summary: e.summary, payload: e.payload })),
    timelineTruncated: total > events.length,
    alertGaps: gaps.map((e) => ({ id: Number(e.id), at: e.at, kind: e.kind, actor: e.actor, summary: e.summary, payload: e.payload })),
    suspects: incident.suspects,
    sessions,
  };
}
export type IncidentDetail = NonNullable<Awaited<ReturnType<typeof getIncident>>>;
