import { getDb } from "@/lib/db/client";
import { attachment, route } from "@/lib/http/route";
import { exportPostmortem } from "@/lib/incidents/history/detail";
import { ExportQuery, IncidentParams } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/** The postmortem: ?format=markdown (default) or json, as a download. */
export const GET = route({
  role: "viewer",
  params: IncidentParams,
  query: ExportQuery,
  run: ({ params, query }) => exportPostmortem(getDb(), params.id, query.format),
  reply: attachment,
});
