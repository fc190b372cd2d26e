import { eventStream } from "@/lib/http/sse";
import { onIncidents } from "@/lib/live/bus";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "incidents" ({ version, ids }: the incidents whose rows changed, maybe none) whenever
 * incidents change; "change" ({ ids }) beside it for pages that still refetch on any change.
 */
export async function GET(request: Request) {
  return eventStream(request, (send) =>
    onIncidents((push) => {
      send("incidents", push);
      send("change", { ids: push.ids });
    }),
  );
}
