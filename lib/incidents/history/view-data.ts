import "server-only";
import { getDb } from "@/lib/db/client";
import { listRunbooks } from "@/lib/catalog/runbooks";
import { getClusterHealth, listMonitoredNames } from "@/lib/live/registry";
import { describeLive } from "./live";
import { getIncident } from "./queries";
import { suggestRunbooks } from "../suspects/suggest";
import type { StoredSuspect } from "../stored";

// What the incident page needs beyond the API's answer: the runbooks worth starting (its signals' links
// into the catalog come from lib/catalog/signal-links, as on the health page).

/** The incident as GET /api/v1/incidents/{id} answers it, or undefined when there is none. */
export async function loadIncidentWithLive(id: number) {
  const detail = await getIncident(getDb(), id);
  if (!detail) return undefined;
  const live = describeLive(detail, getClusterHealth(detail.incident.cluster)?.signals ?? []);
  return { ...detail, live };
}

/** Runbooks to offer for "Start runbook", best first (the one the API starts without a runbookId comes first). */
export function runbookChoices(suspects: Pick<StoredSuspect, "id">[], signals: string[], limit = 6) {
  return suggestRunbooks(listRunbooks(), suspects, signals)
    .slice(0, limit)
    .map((r) => ({ id: r.id, title: r.title }));
}

export function isMonitored(cluster: string): boolean {
  return listMonitoredNames().includes(cluster);
}
