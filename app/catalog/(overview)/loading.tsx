import { RouteLoading } from "@/components/ui/route-loading";

// In the (overview) group so it does not wrap the [id] pages, whose unknown ids must answer 404.
export default function CatalogLoading() {
  return <RouteLoading title="Failure-mode catalog" what="Loading the failure-mode catalog…" rows={6} />;
}
