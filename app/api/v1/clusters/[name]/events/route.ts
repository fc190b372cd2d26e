import { eventStream } from "@/lib/http/sse";
import { Invalid, NotFound } from "@/lib/errors";
import { errorResponse, guarded } from "@/lib/http/route";
import { onHealth, onHealthView } from "@/lib/live/bus";
import { listMonitoredNames } from "@/lib/live/registry";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events: "health" (a HealthPush of what changed, lib/live/health-push.ts) whenever this cluster's
 * health changes as a viewer would notice; with `?view=summary`, pushes of the summary view (what /health holds).
 */
export const GET = guarded("viewer", async (request, context) => {
  const name = String((await context?.params)?.name);
  if (!listMonitoredNames().includes(name)) return errorResponse(new NotFound(`no cluster named "${name}"`, { extra: { name } }));
  const params = new URL(request.url).searchParams;
  const keys = [...params.keys()];
  if (keys.some((k) => k !== "view") || params.getAll("view").length > 1 || (params.has("view") && params.get("view") !== "summary"))
    return errorResponse(Invalid.fields({ [keys.find((k) => k !== "view") ?? "view"]: ['only "view=summary" (or no parameter: the whole health)'] }));
  const listen = params.has("view") ? onHealthView : onHealth;
  return eventStream(request, (send) =>
    listen((push) => {
      if (push.cluster !== name) return;
      send("health", push);
    }),
  );
});
