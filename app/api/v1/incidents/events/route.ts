import { eventStream } from "@/lib/http/sse";
import { onIncidents } from "@/lib/live/bus";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "incidents" ({ version, ids }: the incidents whose rows changed, maybe none) whenever
 * incidents change. A page refetches only what names one of its incidents.
 */
export async function GET(request: Request) {
  return eventStream(request, (send) => onIncidents((push) => send("incidents", push)));
}
