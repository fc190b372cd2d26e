import { RouteLoading } from "@/components/ui/route-loading";

export default function EntryLoading() {
  return <RouteLoading title="Catalog entry" what="Loading the entry with its signals, runbooks and related failures…" rows={3} />;
}
