import type { IncidentSummary } from "@/lib/incidents/history/queries";
import type { getIncidentDetail } from "@/lib/incidents/history/detail";
import type { StoredSuspect } from "@/lib/incidents/stored";
import type { Jsonify } from "@/lib/views/json";

// The incidents API's JSON as the browser receives it (dates as ISO strings).

export type IncidentRow = Jsonify<IncidentSummary>;

/** A page of GET /api/v1/incidents: its rows, the cursor of the next page, incidents per status. */
export interface IncidentListView {
  incidents: IncidentRow[];
  next: string | null;
  counts: { open: number; acknowledged: number; resolved: number };
}

/** GET /api/v1/incidents/{id}: the incident, its members, timeline, suspects, sessions, and what live data says now. */
export type IncidentDetailView = Jsonify<Awaited<ReturnType<typeof getIncidentDetail>>>;

/** A ranked suspect as stored (lib/incidents/stored.ts), as JSON. */
export type SuspectView = Jsonify<StoredSuspect>;
export type SessionView = IncidentDetailView["sessions"][number];
export type TimelineEvent = IncidentDetailView["timeline"][number];
/** One member of an incident as the API shows it. */
export type MemberView = IncidentDetailView["members"][number];
