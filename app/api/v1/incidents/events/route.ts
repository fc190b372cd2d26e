import { eventStream } from "@/lib/http/sse";
import { onIncidentsChange } from "@/lib/monitor/changes";

export const dynamic = "force-dynamic";

/** Server-Sent Events: "change" (data: the incident ids, maybe empty) whenever incidents change. */
export async function GET(request: Request) {
  return eventStream(request, (change) => onIncidentsChange((ids) => change({ ids })));
}
