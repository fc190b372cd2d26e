import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import { getDb } from "@/lib/db/client";
import { listRunbooks } from "@/lib/runbooks/queries";
import { getClusterHealth, listMonitoredNames } from "@/lib/live/registry";
import { describeLive } from "./live";
import { getIncident } from "./queries";
import { suggestRunbooks } from "./suggest";
import type { Suspect } from "./suspects";

// What the incident page needs beyond the API's answer: links from its signals into the catalog and the
// runbooks (as on the health page), and the runbooks worth starting.

/** The incident as GET /api/v1/incidents/{id} answers it, or undefined when there is none. */
export async function loadIncidentWithLive(id: number) {
  const detail = await getIncident(getDb(), id);
  if (!detail) return undefined;
  const live = describeLive(detail, getClusterHealth(detail.incident.cluster)?.signals ?? []);
  return { ...detail, live };
}

export function signalLinksFor(signalIds: string[]) {
  const { entries, runbooks } = getCatalog();
  return Object.fromEntries(
    [...new Set(signalIds)].map((id) => [
      id,
      {
        catalog: entries.filter((e) => e.kind === "failure-mode" && e.signals.includes(id)).slice(0, 6).map((e) => ({ id: e.id, title: e.title })),
        runbooks: runbooks.filter((r) => r.nodes.some((n) => n.signal === id)).map((r) => ({ id: r.id, title: r.title })),
      },
    ]),
  );
}

/** Runbooks to offer for "Start runbook", best first (the one the API starts without a runbookId comes first). */
export function runbookChoices(suspects: unknown, signals: string[], limit = 6) {
  return suggestRunbooks(listRunbooks(), (suspects ?? []) as Suspect[], signals)
    .slice(0, limit)
    .map((r) => ({ id: r.id, title: r.title }));
}

export function isMonitored(cluster: string): boolean {
  return listMonitoredNames().includes(cluster);
}
