import { RouteLoading } from "@/components/ui/route-loading";

export default function IncidentLoading() {
  return <RouteLoading title="Incident" what="Loading the incident, its timeline and its signals…" rows={3} />;
}
