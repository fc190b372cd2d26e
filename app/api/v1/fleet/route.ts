import { hotRoute, route, serializedJson } from "@/lib/http/route";
import { FleetQuery, listFleetText } from "@/lib/views/fleet";

export const dynamic = "force-dynamic";

/**
 * Every watched cluster's row, worst first (`?state=critical,warning&q=env=prod`: the fleet view's filter); 400 naming a
 * bad parameter. Written once per change of the rows for every client asking (lib/views/fleet.ts listFleetText).
 */
export const GET = route({
  role: "viewer",
  search: FleetQuery,
  run: ({ query }) => listFleetText(query),
  reply: serializedJson,
});

hotRoute("/api/v1/fleet", { role: "viewer", search: FleetQuery, read: ({ query }) => listFleetText(query) });
