import "server-only";
import { signalLinks } from "@/lib/catalog/signal-links";
import { loadEnv } from "@/lib/env";
import { IncidentId } from "@/lib/incidents/schemas";
import { isMonitored, loadIncidentWithLive, runbookChoices } from "@/lib/incidents/history/view-data";
import { titleMaps } from "@/lib/catalog/queries";
import { toJson } from "./json";
import { readStore } from "./store-down";

// /incidents/{id}: the incident as the API answers it, plus where its signals lead and the runbooks to offer.

/** Undefined for an id that is not an incident number or names no incident (the page shows not-found). */
export async function loadIncidentPage(rawId: string) {
  const id = IncidentId.safeParse(rawId);
  if (!id.success) return undefined;
  const read = await readStore(() => loadIncidentWithLive(id.data));
  if (!read.ok) return { id: id.data, storeDown: read.storeDown } as const;
  if (!read.value) return undefined;
  const detail = toJson(read.value);
  const signals = detail.members.map((m) => m.signal);
  return {
    id: id.data,
    storeDown: undefined,
    detail,
    links: signalLinks(signals),
    runbooks: runbookChoices(detail.suspects, signals),
    runbookTitles: titleMaps().runbookTitles,
    monitored: isMonitored(detail.incident.cluster),
    renderedAt: Date.now(),
    pollMs: loadEnv().FAULTLINE_POLL_SECONDS * 1000,
  };
}

/** The page title's number, or undefined when the address names no incident number. */
export function incidentNumber(rawId: string): number | undefined {
  const id = IncidentId.safeParse(rawId);
  return id.success ? id.data : undefined;
}
