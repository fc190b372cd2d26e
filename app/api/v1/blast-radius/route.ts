import { listBlastRadiusSummaries } from "@/lib/catalog/blast-radius-summaries";
import { route } from "@/lib/http/route";

export const GET = route({
  role: "viewer",
  run: listBlastRadiusSummaries,
});
