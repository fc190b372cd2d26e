import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import type { IncidentView } from "../rules/rule-types";
import type { Tx } from "../tx";
import { toIncidentView } from "../members/membership";

// Placing the alerts of one batch without a query per alert.

/**
 * membership.ts's loadViews narrowed to what placing these fingerprints reads: every incident the rule may pick,
 * but only the members with these fingerprints (an incident of 100,000 alerts is not read whole per batch).
 */
export async function loadBatchViews(tx: Tx, cluster: string, fingerprints: string[], now: Date, config: IncidentRulesConfig): Promise<ClusterViews> {
  const since = new Date(now.getTime() - config.reopenWindowSeconds * 1000);
  const rows = await tx.incident.findMany({
    where: { cluster, OR: [{ status: { not: "resolved" } }, { resolvedAt: { gte: since } }] },
    include: { members: { where: { cluster, fingerprint: { in: fingerprints } } } },
    orderBy: { id: "asc" },
  });
  return new ClusterViews(rows.map(toIncidentView));
}

/**
 * A cluster's incidents as the placement rule needs them, indexed by fingerprint so a group of thousands
 * places each alert without scanning every member; kept current as this batch opens and joins.
 */
export class ClusterViews {
  private byFingerprint = new Map<string, IncidentView[]>();
  constructor(private views: IncidentView[]) {
    for (const v of views) for (const m of v.members) this.holders(m.fingerprint).push(v);
  }
  private holders(fp: string): IncidentView[] {
    let list = this.byFingerprint.get(fp);
    if (!list) this.byFingerprint.set(fp, (list = []));
    return list;
  }
  /** The incidents placeFingerprint could choose: those holding the fingerprint, and the unresolved ones. */
  candidates(fp: string): IncidentView[] {
    return [...new Set([...(this.byFingerprint.get(fp) ?? []), ...this.views.filter((v) => v.status !== "resolved")])];
  }
  /** Whether the incident has a member row (open or not) for the fingerprint. */
  holds(incidentId: number, fp: string): boolean {
    return this.byFingerprint.get(fp)?.some((v) => v.id === incidentId) ?? false;
  }
  /** Records where a fingerprint went (an incident this batch opened or reopened included). */
  placed(incidentId: number, fp: string, now: Date, reopened: boolean): void {
    let view = this.views.find((v) => v.id === incidentId);
    if (!view) {
      view = { id: incidentId, status: "open", openedAt: now, reopenedAt: null, resolvedAt: null, members: [] };
      this.views.push(view);
    }
    if (reopened && view.status === "resolved") Object.assign(view, { status: "open", reopenedAt: now, resolvedAt: null });
    if (!this.holds(incidentId, fp)) {
      view.members.push({ fingerprint: fp, signal: "", subject: "", source: "alert", healthySince: null });
      this.holders(fp).push(view);
    }
  }
}
