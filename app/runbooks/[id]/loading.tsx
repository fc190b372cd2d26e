import { RouteLoading } from "@/components/ui/route-loading";

export default function RunbookLoading() {
  return <RouteLoading title="Runbook" what="Loading the runbook and its diagram…" rows={3} />;
}
