import { Prisma } from "@/lib/db/generated/client";
import { encodeCursor, type ListKey } from "./cursor";
import type { SearchQuery, SearchTerm } from "./search";
import { estimateMatches } from "./search-estimate";
import { readOr, readPath, readSteps, readSuspects, RecordedStep } from "../stored";
import type { Db } from "../tx";

// Reads for the API and the pages. Lists put what needs attention first: open, then acknowledged, then
// resolved; within each, the most severe, then the newest (the generated columns attention and listed_at).

export const STATUSES = ["open", "acknowledged", "resolved"] as const;
export const SEVERITIES = ["critical", "warning", "info"] as const;

export interface IncidentFilter {
  cluster?: string[];
  status?: (typeof STATUSES)[number][];
  severity?: (typeof SEVERITIES)[number][];
  /** Full-text terms (search.ts). */
  q?: SearchQuery;
  /** Opened or last reopened at or after `from`, before `to`. */
  from?: Date;
  to?: Date;
  /** Rows after this one in the list's order (a decoded `next`). */
  cursor?: ListKey;
  limit?: number;
  /** How to search: chosen from the estimated matches unless given (tests hold both ways to the same answer). */
  searchPlan?: "gather" | "walk";
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

export interface IncidentPage {
  incidents: IncidentSummary[];
  /** The cursor of the next page, or null when this one is the last. */
  next: string | null;
}

type Row = Omit<IncidentSummary, "members" | "topSuspect"> & { members: bigint; top: { id: string; title: string } | null; attention: number; listedAt: Date };

/** One term as a tsquery: a word as a prefix, or a phrase exactly (phraseto_tsquery parses as the document was). */
function termQuery(term: SearchTerm): Prisma.Sql {
  const phrase = Prisma.sql`phraseto_tsquery('simple', ${term.words})`;
  let query = term.kind === "prefix" ? Prisma.sql`(CASE WHEN ${phrase}::text = '' THEN ${phrase} ELSE (${phrase}::text || ':*')::tsquery END)` : phrase;
  for (const joined of term.joined ?? []) query = Prisma.sql`(${query} && phraseto_tsquery('simple', ${joined}))`;
  return term.exclude ? Prisma.sql`!!${query}` : query;
}

function searchQuery(groups: SearchQuery): Prisma.Sql {
  return Prisma.join(
    groups.map((g) => Prisma.sql`(${Prisma.join(g.map(termQuery), " && ")})`),
    " || ",
  );
}

const FEW_MATCHES = 3_000;

/**
 * A page of the list in "needs attention first" order (attention, then opened or reopened, then id, all
 * descending: the index incidents_attention_listed_at_id_idx). Keyset: a row that changes status between two
 * pages moves to where it now belongs; every other row is shown once.
 */
export async function listIncidentPage(db: Db, filter: IncidentFilter = {}): Promise<IncidentPage> {
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
  const where: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filter.cluster?.length) where.push(Prisma.sql`i."cluster" IN (${Prisma.join(filter.cluster)})`);
  if (filter.status?.length) where.push(Prisma.sql`i."status" IN (${Prisma.join(filter.status)})`);
  if (filter.severity?.length) where.push(Prisma.sql`i."severity" IN (${Prisma.join(filter.severity)})`);
  if (filter.from) where.push(Prisma.sql`i."listed_at" >= ${filter.from}`);
  if (filter.to) where.push(Prisma.sql`i."listed_at" < ${filter.to}`);
  if (filter.q) {
    // Nothing searchable in the text (only punctuation): nothing matches, as in any search box.
    if (filter.q.length === 0) return { incidents: [], next: null };
    const query = searchQuery(filter.q);
    // Few matches: take them all from the GIN index and sort them. Many: walk the list's index and check each row
    // (dense matches fill a page after a few hundred rows). The planner's own choice assumes words independent and
    // matches spread evenly; a subject's incidents cluster in the order, so the choice is made here.
    where.push(
      (filter.searchPlan ?? ((await estimateMatches(db, filter.q)) <= FEW_MATCHES ? "gather" : "walk")) === "gather"
        ? Prisma.sql`i."id" = ANY(ARRAY(SELECT s."incident_id" FROM "incident_search" s WHERE s."document" @@ (${query})))`
        : // A scalar subquery, so the planner cannot turn it into a GIN scan of every match.
          Prisma.sql`(SELECT s."document" FROM "incident_search" s WHERE s."incident_id" = i."id") @@ (${query})`,
    );
  }
  if (filter.cursor) {
    const { attention, listedAt, id } = filter.cursor;
    where.push(Prisma.sql`(i."attention", i."listed_at", i."id") < (${attention}::int, ${listedAt}::timestamptz, ${id}::int)`);
  }
  // The page's keys first, from the index alone; then its rows. Asked for whole rows at once, the planner may
  // rather read the table and sort it when it misjudges how many rows a filter keeps.
  const rows = await db.$queryRaw<Row[]>`
    WITH "page" AS MATERIALIZED (
      SELECT i."id" FROM "incidents" i
      WHERE ${Prisma.join(where, " AND ")}
      ORDER BY i."attention" DESC, i."listed_at" DESC, i."id" DESC
      LIMIT ${limit + 1})
    SELECT i."id", i."cluster", i."title", i."severity", i."status", i."source", i."signal", i."subject", i."opened_at" AS "openedAt",
           i."acknowledged_at" AS "acknowledgedAt", i."resolved_at" AS "resolvedAt", i."reopened_at" AS "reopenedAt", i."last_seen_at" AS "lastSeenAt", i."reopen_count" AS "reopenCount",
           i."attention", i."listed_at" AS "listedAt",
           (SELECT count(*) FROM "incident_members" m WHERE m."incident_id" = i."id") AS "members",
           CASE WHEN jsonb_array_length(i."suspects") > 0 THEN jsonb_build_object('id', i."suspects"->0->'id', 'title', i."suspects"->0->'title') END AS "top"
    FROM "page" p JOIN "incidents" i ON i."id" = p."id"
    ORDER BY i."attention" DESC, i."listed_at" DESC, i."id" DESC`;
  const page = rows.slice(0, limit).map(({ top, members, attention, listedAt, ...row }) => ({
    summary: { ...row, members: Number(members), topSuspect: top },
    key: { attention, listedAt, id: row.id },
  }));
  return { incidents: page.map((p) => p.summary), next: rows.length > limit ? encodeCursor(page[limit - 1].key) : null };
}

/** The first page's rows (listIncidentPage without its cursor). */
export async function listIncidents(db: Db, filter: IncidentFilter = {}): Promise<IncidentSummary[]> {
  return (await listIncidentPage(db, filter)).incidents;
}

const TIMELINE_LIMIT = 2_000;

/** A payload is a JSON object as written (tx.ts); anything else reads as empty. */
const payloadOf = (payload: Prisma.JsonValue): Record<string, unknown> => (payload && typeof payload === "object" && !Array.isArray(payload) ? payload : {});

const eventView = (e: { id: bigint; at: Date; kind: string; actor: string; summary: string; payload: Prisma.JsonValue }) => ({
  id: Number(e.id),
  at: e.at,
  kind: e.kind,
  actor: e.actor,
  summary: e.summary,
  payload: payloadOf(e.payload),
  /** A runbook step's record, read here through its schema so the browser needs none; null when it does not parse. */
  step: e.kind === "runbook_step" ? (RecordedStep.safeParse(e.payload).data ?? null) : null,
});

/** One incident with its member keys, timeline (oldest first, the latest 2,000), suspects and runbook sessions. */
export async function getIncident(db: Db, id: number) {
  const incident = await db.incident.findUnique({
    where: { id },
    omit: { attention: true, listedAt: true },
    include: { members: { orderBy: { id: "asc" } }, sessions: { orderBy: { id: "asc" } } },
  });
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
  // A stored value that does not read is left out and named in `unreadable`: the rest of the incident still shows.
  const unreadable: string[] = [];
  const readable = <T>(read: { value: T; unreadable?: string }) => {
    if (read.unreadable) unreadable.push(read.unreadable);
    return read.value;
  };
  return {
    incident: rest,
    members,
    timeline: events.map(eventView),
    timelineTruncated: total > events.length,
    alertGaps: gaps.map(eventView),
    suspects: readable(readOr(() => readSuspects(incident.suspects, id), [])),
    sessions: sessions.map((s) => ({
      ...s,
      path: readable(readOr(() => readPath(s.path, s.id), [])),
      steps: readable(readOr(() => readSteps(s.steps, s.id), [])),
    })),
    unreadable,
  };
}
export type IncidentDetail = NonNullable<Awaited<ReturnType<typeof getIncident>>>;
