import "server-only";
import { signalLinks } from "@/lib/catalog/signal-links";
import { loadEnv } from "@/lib/env";
import { IncidentId } from "@/lib/incidents/schemas";
import { isMonitored, loadIncidentWithLive, runbookChoices } from "@/lib/incidents/history/view-data";
import { getEntry, titleMaps } from "@/lib/catalog/queries";
import { firstRecoveryStep, type RecoveryStep } from "@/lib/catalog/recovery";
import { listRunbooks } from "@/lib/catalog/runbooks";
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
    recoveries: recoveriesOf(detail.suspects),
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

/** Each suspect's first recovery step, for the first screen: whichever one leads when the page updates has its own. */
function recoveriesOf(suspects: { id: string }[]): Record<string, RecoveryStep> {
  const steps: Record<string, RecoveryStep> = {};
  for (const { id } of suspects) {
    const entry = getEntry(id);
    if (entry?.kind === "failure-mode") steps[id] = firstRecoveryStep(entry, listRunbooks());
  }
  return steps;
}
