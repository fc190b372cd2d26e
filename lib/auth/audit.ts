import { getDb } from "@/lib/db/client";
import { cleanText } from "@/lib/text/outside-text";

// The audit log: append-only rows (a trigger refuses UPDATE, DELETE and TRUNCATE), written by gate.ts and the
// sign-in routes, read by /audit.

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
}

/** Records one entry; a failure is logged, never thrown: the answer already given stands. */
export async function recordAudit(entry: AuditInput): Promise<void> {
  const data = {
    ...entry,
    at: entry.at ?? new Date(),
    actor: cleanText(entry.actor, 256),
    objectId: entry.objectId === undefined ? undefined : cleanText(entry.objectId, 200),
    detail: entry.detail === undefined ? undefined : cleanText(entry.detail, 1000),
  };
  try {
    await getDb().auditEntry.create({ data });
  } catch (error) {
    console.error(`[faultline] audit entry ${entry.method} ${entry.route} by ${data.actor} not recorded: ${(error as Error).message}`);
  }
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
});

/** Newest first; `before` is the id the previous page ended at. */
export async function listAudit(f: AuditFilter, page: { before?: number; limit: number }): Promise<{ entries: AuditRow[]; next?: number; total: number }> {
  const filter = where(f);
  const [rows, total] = await Promise.all([
    getDb().auditEntry.findMany({
      where: { ...filter, ...(page.before ? { id: { lt: BigInt(page.before) } } : {}) },
      orderBy: { id: "desc" },
      take: page.limit + 1,
    }),
    getDb().auditEntry.count({ where: filter }),
  ]);
  const entries = rows.slice(0, page.limit).map(toRow);
  return { entries, next: rows.length > page.limit ? entries[entries.length - 1].id : undefined, total };
}

const CSV_COLUMNS = ["id", "at", "actor", "role", "method", "route", "action", "objectType", "objectId", "remote", "status", "detail"] as const;

/** RFC 4180 CSV; a cell a spreadsheet would run as a formula is prefixed with ' (OWASP's CSV injection advice). */
export function auditCsv(rows: AuditRow[]): string {
  const cell = (v: unknown) => {
    let s = v === null || v === undefined ? "" : String(v);
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [CSV_COLUMNS.join(","), ...rows.map((r) => CSV_COLUMNS.map((c) => cell(r[c])).join(","))].join("\r\n") + "\r\n";
}
