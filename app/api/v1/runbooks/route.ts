import { route } from "@/lib/http/route";
import { listRunbookSummaries } from "@/lib/catalog/runbook-summaries";

export const GET = route({
  role: "viewer",
  run: listRunbookSummaries,
});
