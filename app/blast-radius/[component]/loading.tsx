import { RouteLoading } from "@/components/ui/route-loading";

export default function ComponentLoading() {
  return <RouteLoading title="Blast radius" what="Loading what breaks with this component and what is safe to do…" rows={3} />;
}
