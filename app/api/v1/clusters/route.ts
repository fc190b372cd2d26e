import { listClusters } from "@/lib/views/clusters";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "viewer",
  run: listClusters,
});
