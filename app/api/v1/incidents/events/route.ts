import { guarded } from "@/lib/http/route";
import { eventStream } from "@/lib/http/sse";
import { onIncidents } from "@/lib/live/bus";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "incidents" ({ version, ids }: the incidents whose rows changed, maybe none) whenever
 * incidents change. A page refetches only what names one of its incidents.
 */
export const GET = guarded("viewer", async (request) => eventStream(request, (send) => onIncidents((push) => send("incidents", push))));
