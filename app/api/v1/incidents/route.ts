import { getDb } from "@/lib/db/client";
import { hotRoute, route, sharedJson, sharedJsonText } from "@/lib/http/route";
import { listIncidentHistoryShared } from "@/lib/incidents/history/list-cache";
import { IncidentListQuery } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/**
 * Incidents, open first, a page at a time: ?cluster=&status=open,acknowledged&severity=critical&q=&from=&to=&limit=&cursor=
 * (read once for every request of the same list until incidents change: lib/incidents/history/list-cache.ts).
 */
export const GET = route({
  role: "viewer",
  query: IncidentListQuery,
  run: ({ query }) => listIncidentHistoryShared(getDb(), query),
  reply: sharedJson,
});

hotRoute("/api/v1/incidents", {
  role: "viewer",
  query: IncidentListQuery,
  read: async ({ query }) => sharedJsonText(await listIncidentHistoryShared(getDb(), query)),
});
