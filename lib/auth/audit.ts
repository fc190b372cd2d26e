import { getDb } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { loadEnv } from "@/lib/env";
import { countAuditRefusals, countAuditWriteFailure } from "@/lib/metrics";
import { processSlot } from "@/lib/process-slot";
import { cleanText } from "@/lib/text/outside-text";
import { hideSecrets } from "@/lib/text/secrets";
import { principalOf, recordedAs } from "./principal";
import { restoreRefusals, takeRefusals, WINDOW_MS, type Gathered } from "./refusals";

// The audit log: append-only rows (a trigger refuses UPDATE, DELETE and TRUNCATE), written by gate.ts and the
// sign-in routes, and for refusals by the writer below from what refusals.ts gathered; read by /audit.

export interface AuditInput {
  at?: Date;
  actor: string;
  role?: string;
  method: string;
  route: string;
  action: string;
  objectType?: string;
  objectId?: string;
  remote?: string;
  status: number;
  detail?: string;
  /** Requests the row stands for (gathered refusals), the last of them at `lastAt`. */
  count?: number;
  lastAt?: Date;
}

function cleaned(entry: AuditInput) {
  return {
    ...entry,
    at: entry.at ?? new Date(),
    actor: cleanText(entry.actor, 256),
    // A route or action can hold a path a client sent (a page's refusal under next dev, a dynamic segment).
    route: cleanText(entry.route, 300),
    action: cleanText(entry.action, 320),
    objectId: entry.objectId === undefined ? undefined : cleanText(entry.objectId, 200),
    // A refusal's text quotes what the request sent (an Origin, a Host): nothing shaped like a credential is kept.
    detail: entry.detail === undefined ? undefined : cleanText(hideSecrets(entry.detail).text, 1000),
  };
}

/** Records one entry; a failure is logged, never thrown: the answer already given stands. */
export async function recordAudit(entry: AuditInput): Promise<void> {
  const data = cleaned(entry);
  try {
    await getDb().auditEntry.create({ data });
  } catch (error) {
    console.error(`[faultline] audit entry ${entry.method} ${entry.route} by ${data.actor} not recorded: ${(error as Error).message}`);
  }
}

/**
 * Writes the refusals gathered since the last call (refusals.ts), one row per kind with its count; rows that cannot
 * be written go back to be tried with the next window, and faultline_audit_write_failures_total counts the attempt.
 * Returns the rows written.
 */
export async function flushRefusals(db?: PrismaClient): Promise<number> {
  const rows = takeRefusals();
  if (rows.length === 0) return 0;
  const requests = rows.reduce((n, r) => n + r.count, 0);
  try {
    const client = db ?? getDb();
    const named = await nameSessions(client, rows);
    await client.auditEntry.createMany({ data: named.map(entryOf).map(cleaned) });
  } catch (error) {
    restoreRefusals(rows);
    countAuditWriteFailure();
    // Prisma's message quotes the call first; its last line is the cause.
    const cause = cleanText((error as Error).message.trim().split("\n").pop() ?? "", 300);
    console.error(`[faultline] ${requests} refused requests not yet in the audit log (tried again in ${WINDOW_MS / 1000} s): ${cause}`);
    return 0;
  }
  countAuditRefusals("recorded", requests);
  return rows.length;
}

const entryOf = (g: Gathered): AuditInput => ({
  at: g.first,
  lastAt: g.count > 1 ? g.last : undefined,
  count: g.count,
  actor: g.actor,
  role: g.role,
  method: g.method,
  route: g.route,
  action: g.action,
  objectType: g.objectType,
  objectId: g.objectId,
  remote: g.remote,
  status: g.status,
  detail: g.detail,
});

/** Refusals the edge saw with an OIDC session cookie: whose session it is, looked up now rather than on the request path. */
async function nameSessions(db: PrismaClient, rows: Gathered[]): Promise<Gathered[]> {
  const keys = [...new Set(rows.flatMap((r) => (r.session ? [r.session] : [])))];
  if (keys.length === 0) return rows;
  const sessions = await db.authSession.findMany({ where: { idHash: { in: keys } }, select: { idHash: true, user: true, groups: true } });
  const env = loadEnv();
  const who = new Map(sessions.map((s) => [s.idHash, recordedAs(principalOf(s.user, s.groups as string[], "oidc", env))]));
  return rows.map(({ session, ...r }) => ({ ...r, ...(session ? who.get(session) : undefined) }));
}

const writer = processSlot<{ timer?: NodeJS.Timeout; writing?: Promise<unknown> }>("audit.writer");

/** Writes gathered refusals every `every` ms (WINDOW_MS), once per process (lib/startup.ts); a slow write is not overlapped. */
export function startAuditWriter(every = WINDOW_MS): { stop: () => void } {
  const w = writer.getOrCreate(() => ({}));
  w.timer ??= setInterval(() => {
    w.writing ??= flushRefusals().finally(() => (w.writing = undefined));
  }, every).unref();
  return {
    stop: () => {
      clearInterval(w.timer);
      w.timer = undefined;
    },
  };
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  outcome?: "allowed" | "refused" | "failed";
  from?: Date;
  to?: Date;
}

export interface AuditRow {
  id: number;
  at: string;
  /** Requests the row stands for: more than 1 for refusals alike gathered in one window, the last at `lastAt`. */
  count: number;
  lastAt: string | null;
  actor: string;
  role: string | null;
  method: string;
  route: string;
  action: string;
  objectType: string | null;
  objectId: string | null;
  remote: string | null;
  status: number;
  detail: string | null;
}

function where(f: AuditFilter) {
  const status = f.outcome === "allowed" ? { lt: 400 } : f.outcome === "refused" ? { gte: 400, lt: 500 } : f.outcome === "failed" ? { gte: 500 } : undefined;
  return {
    ...(f.actor ? { actor: { contains: f.actor, mode: "insensitive" as const } } : {}),
    ...(f.action ? { action: { startsWith: f.action } } : {}),
    ...(status ? { status } : {}),
    ...(f.from || f.to ? { at: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } : {}),
  };
}

const toRow = (r: Awaited<ReturnType<ReturnType<typeof getDb>["auditEntry"]["findMany"]>>[number]): AuditRow => ({
  ...r,
  id: Number(r.id),
  at: r.at.toISOString(),
  lastAt: r.lastAt?.toISOString() ?? null,
});

/**
 * Newest first by when it happened (a gathered refusal is written up to a window after it came), `before` the id
 * the previous page ended at. `requests`: what the matching rows stand for, their counts summed.
 */
export async function listAudit(
  f: AuditFilter,
  page: { before?: number; limit: number },
): Promise<{ entries: AuditRow[]; next?: number; total: number; requests: number }> {
  const db = getDb();
  const filter = where(f);
  const before = page.before === undefined ? undefined : BigInt(page.before);
  const cursor = before === undefined ? undefined : await db.auditEntry.findUnique({ where: { id: before }, select: { at: true } });
  const after = cursor ? { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: before } }] } : before !== undefined ? { id: { lt: before } } : {};
  const [rows, total, sum] = await Promise.all([
    db.auditEntry.findMany({ where: { AND: [filter, after] }, orderBy: [{ at: "desc" }, { id: "desc" }], take: page.limit + 1 }),
    db.auditEntry.count({ where: filter }),
    db.auditEntry.aggregate({ where: filter, _sum: { count: true } }),
  ]);
  const entries = rows.slice(0, page.limit).map(toRow);
  return { entries, next: rows.length > page.limit ? entries[entries.length - 1].id : undefined, total, requests: sum._sum.count ?? 0 };
}

const CSV_COLUMNS = [
  "id",
  "at",
  "lastAt",
  "count",
  "actor",
  "role",
  "method",
  "route",
  "action",
  "objectType",
  "objectId",
  "remote",
  "status",
  "detail",
] as const;

/** RFC 4180 CSV; a cell a spreadsheet would run as a formula is prefixed with ' (OWASP's CSV injection advice). */
export function auditCsv(rows: AuditRow[]): string {
  const cell = (v: unknown) => {
    let s = v === null || v === undefined ? "" : String(v);
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [CSV_COLUMNS.join(","), ...rows.map((r) => CSV_COLUMNS.map((c) => cell(r[c])).join(","))].join("\r\n") + "\r\n";
}
