import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Liveness: the process answers. Says nothing about the database (see /api/readyz). */
export const GET = route({
  role: "public",
  run: () => ({ status: "ok", uptimeSeconds: Math.round(process.uptime()) }),
});
