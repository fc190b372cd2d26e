import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { listIncidentHistory } from "@/lib/incidents/history/history";
import { IncidentListQuery } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/** Incidents, open first, a page at a time: ?cluster=&status=open,acknowledged&severity=critical&q=&from=&to=&limit=&cursor= */
export const GET = route({
  role: "viewer",
  query: IncidentListQuery,
  run: ({ query }) => listIncidentHistory(getDb(), query),
  reply: { headers: { "Cache-Control": "no-store" } },
});
