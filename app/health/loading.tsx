import { RouteLoading } from "@/components/ui/route-loading";

export default function HealthLoading() {
  return <RouteLoading title="Live health" what="Reading the latest health of each watched cluster…" rows={6} />;
}
