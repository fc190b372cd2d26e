import { RouteLoading } from "@/components/ui/route-loading";

export default function BlastRadiusLoading() {
  return <RouteLoading title="Blast radius" what="Loading the components and their dependency diagram…" rows={6} />;
}
