import { actorOf } from "@/lib/auth/identify";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { listLogSources } from "@/lib/incidents/evidence/log-evidence";
import { IncidentParams, ReadLogsBody } from "@/lib/incidents/schemas";
import { requestIncidentLogs } from "@/lib/monitor/monitor";

/** Each log source of the incident: its last good reading, telling lines first, and a newer refusal with why. */
export const GET = route({
  role: "viewer",
  params: IncidentParams,
  run: ({ params }) => listLogSources(getDb(), params.id),
});

/** Body: {}. Reads the incident's logs again now; 409 when this server does not watch its cluster. */
export const POST = route({
  role: "responder",
  action: "incident.logs",
  object: { type: "incident", param: "id" },
  params: IncidentParams,
  body: ReadLogsBody,
  run: ({ params, who }) => requestIncidentLogs(getDb(), params.id, actorOf(who)),
});
