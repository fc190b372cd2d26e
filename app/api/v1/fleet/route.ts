import { route } from "@/lib/http/route";
import { FleetQuery, listFleet } from "@/lib/views/fleet";

export const dynamic = "force-dynamic";

/** Every watched cluster's row, worst first (`?state=critical,warning&q=env=prod`: the fleet view's filter); 400 naming a bad parameter. */
export const GET = route({
  role: "viewer",
  search: FleetQuery,
  run: ({ query }) => listFleet(query),
  reply: { headers: { "Cache-Control": "no-store" } },
});
