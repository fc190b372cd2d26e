import { RouteLoading } from "@/components/ui/route-loading";

export default function CatalogLoading() {
  return <RouteLoading title="Failure-mode catalog" what="Loading the failure-mode catalog…" rows={6} />;
}
