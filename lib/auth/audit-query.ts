import { z } from "zod";
import { auditCsv, listAudit, type AuditFilter } from "./audit";

// The audit log's filters, as the /audit page and /api/v1/audit take them (?actor=&action=&outcome=&from=&to=).

const time = z
  .string()
  .trim()
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be a date and time such as 2026-11-23T10:00Z")
  .transform((s) => new Date(s));

export const AuditQuery = z.strictObject({
  actor: z.string().trim().max(256, "at most 256 characters").optional(),
  action: z.string().trim().max(100, "at most 100 characters").optional(),
  outcome: z.enum(["allowed", "refused", "failed"], { message: "must be allowed, refused or failed" }).optional(),
  from: time.optional(),
  to: time.optional(),
  before: z.coerce.number({ message: "must be an entry id" }).int().min(1).optional(),
  limit: z.coerce.number({ message: "must be 1-500" }).int().min(1, "must be 1-500").max(500, "must be 1-500").default(100),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditExportQuery = AuditQuery.omit({ before: true, limit: true }).extend({
  format: z.enum(["json", "csv"], { message: "must be json or csv" }).default("json"),
});

/** An empty field of a form means "any". */
export function withoutEmpty(query: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim() !== ""));
}

const filterOf = ({ actor, action, outcome, from, to }: AuditFilter): AuditFilter => ({ actor, action, outcome, from, to });

export const readAudit = (q: AuditQuery) => listAudit(filterOf(q), { before: q.before, limit: q.limit });

/** At most this many entries in one export; a narrower filter gets the rest. */
export const EXPORT_LIMIT = 50_000;

export async function exportAudit(q: z.infer<typeof AuditExportQuery>) {
  const { entries } = await listAudit(filterOf(q), { limit: EXPORT_LIMIT });
  const name = `faultline-audit-${new Date().toISOString().slice(0, 19).replace(/:/g, "")}`;
  if (q.format === "csv") return { name: `${name}.csv`, text: auditCsv(entries), type: "text/csv; charset=utf-8" };
  return { name: `${name}.json`, json: { entries } };
}
