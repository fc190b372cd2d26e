import { checkReadiness } from "@/lib/db/readiness";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "public",
  run: () => checkReadiness(),
  reply: (readiness) => json(readiness, { status: readiness.ready ? 200 : 503 }),
});
