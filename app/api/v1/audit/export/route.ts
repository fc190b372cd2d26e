import { AuditExportQuery, exportAudit } from "@/lib/auth/audit-query";
import { attachment, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The audit log under the same filters as a download: ?format=json (default) or csv. */
export const GET = route({ role: "admin", query: AuditExportQuery, run: ({ query }) => exportAudit(query), reply: attachment });
