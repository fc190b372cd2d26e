import { checkReadiness } from "@/lib/db/readiness";
import { json, route } from "@/lib/http/route";
import { rolesKnown } from "@/lib/live/registry";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "public",
  run: async () => {
    const readiness = await checkReadiness();
    // A replica that does not yet know whether it leads a cluster would serve nothing, or a stale health, for it.
    const roles = rolesKnown();
    if (roles.known) return readiness;
    return { ...readiness, ready: false, monitors: "starting" as const, error: `not yet known whether this replica leads ${roles.starting.join(", ")}` };
  },
  reply: (readiness) => json(readiness, { status: readiness.ready ? 200 : 503 }),
});
