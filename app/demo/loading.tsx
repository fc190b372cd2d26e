import { RouteLoading } from "@/components/ui/route-loading";

export default function DemoLoading() {
  return <RouteLoading title="Demo cluster" what="Reading the simulated cluster and its scenarios…" rows={6} />;
}
