import { z } from "zod";
import { readBlastRadiusDetail } from "@/lib/catalog/blast-radius-summaries";
import { route } from "@/lib/http/route";

export const GET = route({
  role: "viewer",
  params: z.object({ component: z.string() }),
  run: ({ params }) => readBlastRadiusDetail(params.component),
});
