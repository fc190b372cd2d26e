import { subscribeFleet } from "@/lib/fleet/live";
import { guarded } from "@/lib/http/route";
import { eventStream } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "fleet" (lib/fleet/live.ts), first every row (`full: true`), then the rows that changed: a
 * cluster's state, line, failing components, incidents, or its turning stale. Never a cluster's whole health.
 */
export const GET = guarded("viewer", async (request) => eventStream(request, (send) => subscribeFleet((push) => send("fleet", push))));
