import { route } from "@/lib/http/route";
import { listRunbookSummaries } from "@/lib/runbooks/summaries";

export const GET = route({ run: listRunbookSummaries });
