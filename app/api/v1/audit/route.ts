import { AuditQuery, readAudit } from "@/lib/auth/audit-query";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The audit log, newest first: ?actor=&action=&outcome=allowed|refused|failed&from=&to=&limit=&before=<id of the last entry seen>. */
export const GET = route({ role: "admin", query: AuditQuery, run: ({ query }) => readAudit(query) });
