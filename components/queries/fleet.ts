import { queryOptions } from "@tanstack/react-query";
import type { FleetRow } from "@/lib/fleet/fleet-row";
import { getJson } from "./http";

// The fleet's rows, defined once: the page passes the server's rows as initialData, pushes from the fleet's event
// stream patch this entry (components/live/use-live.ts), and the browser sorts and filters what it holds.

export interface FleetData {
  rows: FleetRow[];
  /** Why the incident store could not be read, while it cannot. */
  storeDown?: string;
}

export const fleetQuery = () =>
  queryOptions({
    queryKey: ["fleet"],
    queryFn: () => getJson<FleetData>("/api/v1/fleet"),
  });

export const FLEET_EVENTS = "/api/v1/fleet/events";
