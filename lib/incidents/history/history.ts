import { countIncidentsByStatus, type StatusCounts } from "./counts";
import { listIncidentPage, type IncidentFilter, type IncidentSummary } from "./queries";
import type { Db } from "../tx";

export interface IncidentHistory {
  count: number;
  incidents: IncidentSummary[];
  /** Pass as ?cursor= for the next page; null on the last. */
  next: string | null;
  /** Incidents per status in the chosen clusters (all when none), whatever the other filters. */
  counts: StatusCounts;
}

/** GET /api/v1/incidents and the /incidents page: one page of the list and the counts per status. */
export async function listIncidentHistory(db: Db, filter: IncidentFilter): Promise<IncidentHistory> {
  const [page, counts] = await Promise.all([listIncidentPage(db, filter), countIncidentsByStatus(db, filter.cluster)]);
  return { count: page.incidents.length, incidents: page.incidents, next: page.next, counts };
}
