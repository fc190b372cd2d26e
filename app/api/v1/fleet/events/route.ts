import { Invalid } from "@/lib/errors";
import { subscribeFleet } from "@/lib/fleet/live";
import { errorResponse, guarded } from "@/lib/http/route";
import { eventStream } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "fleet" (lib/fleet/live.ts), first every row (`full: true`), then the rows that changed: a
 * cluster's state, line, failing components, incidents, or its turning stale. Never a cluster's whole health.
 */
export const GET = guarded("viewer", async (request) => {
  const key = new URL(request.url).searchParams.keys().next().value;
  // The stream is every row: a page filters what it holds.
  if (key !== undefined) return errorResponse(Invalid.fields({ [key]: ["takes no parameters: the stream carries every row"] }));
  return eventStream(request, (send) => subscribeFleet((push) => send("fleet", push)));
});
