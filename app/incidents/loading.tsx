import { RouteLoading } from "@/components/ui/route-loading";

export default function IncidentsLoading() {
  return <RouteLoading title="Incidents" what="Loading incidents from the incident store…" rows={6} />;
}
