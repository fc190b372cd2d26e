import { z } from "zod";
import { HealthQuery, readHealthText, readHealthView } from "@/lib/views/health-api";
import { hotRoute, json, route, serializedJson } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/**
 * The cluster's latest health (the whole document), its summary (`?view=summary`: what /health shows first) or a
 * matrix's rows by page (`?view=rows&server=&state=&cursor=&limit=`); 202 until the monitor has read it once.
 */
export const GET = route({
  role: "viewer",
  params: z.object({ name: z.string() }),
  search: HealthQuery,
  run: ({ params, query }) => readHealthView(params.name, query),
  reply: (read) =>
    read.text !== undefined
      ? serializedJson(read.text)
      : "health" in read
        ? json(read.health, { headers: { "Cache-Control": "no-store" } })
        : json(read.pending, { status: 202 }),
});

hotRoute("/api/v1/clusters/[name]/health", {
  role: "viewer",
  params: z.object({ name: z.string() }),
  search: HealthQuery,
  read: ({ params, query }) => readHealthText(params.name, query),
});
