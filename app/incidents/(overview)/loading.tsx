import { RouteLoading } from "@/components/ui/route-loading";

// In the (overview) group so it does not wrap the [id] pages, whose unknown ids must answer 404.
export default function IncidentsLoading() {
  return <RouteLoading title="Incidents" what="Loading incidents from the incident store…" rows={6} />;
}
