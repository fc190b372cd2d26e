import { z } from "zod";
import { readClusterHealth } from "@/lib/views/clusters";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The cluster's latest health; 202 until the monitor has read it once. */
export const GET = route({
  role: "viewer",
  params: z.object({ name: z.string() }),
  run: ({ params }) => readClusterHealth(params.name),
  reply: (read) => ("health" in read ? json(read.health, { headers: { "Cache-Control": "no-store" } }) : json(read.pending, { status: 202 })),
});
