import { RouteLoading } from "@/components/ui/route-loading";

export default function RunbooksLoading() {
  return <RouteLoading title="Runbooks" what="Loading the runbooks…" rows={6} />;
}
