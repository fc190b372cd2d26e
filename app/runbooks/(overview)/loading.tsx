import { RouteLoading } from "@/components/ui/route-loading";

// In the (overview) group so it does not wrap the [id] pages, whose unknown ids must answer 404.
export default function RunbooksLoading() {
  return <RouteLoading title="Runbooks" what="Loading the runbooks…" rows={6} />;
}
