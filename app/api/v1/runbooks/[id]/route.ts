import { z } from "zod";
import { route } from "@/lib/http/route";
import { readRunbookDetail } from "@/lib/catalog/runbook-summaries";

export const GET = route({
  role: "viewer",
  params: z.object({ id: z.string() }),
  run: ({ params }) => readRunbookDetail(params.id),
});
