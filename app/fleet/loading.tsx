import { RouteLoading } from "@/components/ui/route-loading";

export default function FleetLoading() {
  return <RouteLoading title="Fleet" what="Reading every watched cluster's latest state and its incidents…" rows={8} />;
}
