import { z } from "zod";
import { readHealthNode } from "@/lib/views/health-api";
import { json, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** One node: its row and cells in every KMS matrix that has one, and its signals; 404 for a node no matrix has. */
export const GET = route({
  role: "viewer",
  params: z.object({ name: z.string(), node: z.string().min(1).max(253) }),
  search: z.instanceof(URLSearchParams).refine((p) => [...p.keys()].length === 0, { message: "this address takes no parameters" }),
  run: ({ params }) => readHealthNode(params.name, params.node),
  reply: (read) => ("health" in read ? json(read.health, { headers: { "Cache-Control": "no-store" } }) : json(read.pending, { status: 202 })),
});
