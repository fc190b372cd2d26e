import { RouteLoading } from "@/components/ui/route-loading";

// In the (overview) group so it does not wrap the [id] pages, whose unknown ids must answer 404.
export default function BlastRadiusLoading() {
  return <RouteLoading title="Blast radius" what="Loading the components and their dependency diagram…" rows={6} />;
}
