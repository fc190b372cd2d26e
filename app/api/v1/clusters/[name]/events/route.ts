import { eventStream } from "@/lib/http/sse";
import { NotFound } from "@/lib/errors";
import { errorResponse, guarded } from "@/lib/http/route";
import { onHealth } from "@/lib/live/bus";
import { listMonitoredNames } from "@/lib/live/registry";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "health" (a HealthPush of what changed, lib/live/health-push.ts) whenever this cluster's
 * health changes as a viewer would notice.
 */
export const GET = guarded("viewer", async (request, context) => {
  const name = String((await context?.params)?.name);
  if (!listMonitoredNames().includes(name)) return errorResponse(new NotFound(`no cluster named "${name}"`, { extra: { name } }));
  return eventStream(request, (send) =>
    onHealth((push) => {
      if (push.cluster !== name) return;
      send("health", push);
    }),
  );
});
