import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { listIncidents } from "@/lib/incidents/queries";
import { IncidentListQuery } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/** Incidents, open first; ?cluster=&status=open,acknowledged&severity=critical&limit= */
export const GET = route({
  role: "viewer",
  query: IncidentListQuery,
  run: async ({ query }) => {
    const incidents = await listIncidents(getDb(), query);
    return { count: incidents.length, incidents };
  },
  reply: { headers: { "Cache-Control": "no-store" } },
});
