import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { getIncidentDetail } from "@/lib/incidents/history/detail";
import { IncidentParams } from "@/lib/incidents/schemas";

export const dynamic = "force-dynamic";

/** One incident: its fingerprints, timeline, suspects, runbook sessions, and what live data says now. */
export const GET = route({
  role: "viewer",
  params: IncidentParams,
  run: ({ params }) => getIncidentDetail(getDb(), params.id),
  reply: { headers: { "Cache-Control": "no-store" } },
});
