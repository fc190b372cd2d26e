import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import type { IncidentView } from "../rules/rule-types";
import type { Tx } from "../tx";
import { FIRING_STATES, toIncidentView } from "../members/membership";
import { neededSignals } from "../suspects/suspects";

// Placing the alerts of one batch without a query per alert.

/**
 * membership.ts's loadViews narrowed to what placing these member keys reads: every incident the rule may pick,
 * but only the members with these member keys (an incident of 100,000 alerts is not read whole per batch).
 */
export async function loadBatchViews(tx: Tx, cluster: string, memberKeys: string[], now: Date, config: IncidentRulesConfig): Promise<ClusterViews> {
  const since = new Date(now.getTime() - config.reopenWindowSeconds * 1000);
  const rows = await tx.incident.findMany({
    where: { cluster, OR: [{ status: { not: "resolved" } }, { resolvedAt: { gte: since } }] },
    include: { members: { where: { cluster, memberKey: { in: memberKeys } } } },
    orderBy: { id: "asc" },
  });
  // The signals some failure mode needs that fire in each unresolved incident: whether its root cause is open.
  const firing = await tx.incidentMember.findMany({
    where: {
      incidentId: { in: rows.filter((r) => r.status !== "resolved").map((r) => r.id) },
      open: true,
      signal: { in: [...neededSignals()] },
      state: { in: FIRING_STATES },
    },
    select: { incidentId: true, signal: true },
    distinct: ["incidentId", "signal"],
  });
  return new ClusterViews(
    rows.map((r) =>
      toIncidentView(
        r,
        firing.filter((f) => f.incidentId === r.id).map((f) => f.signal),
      ),
    ),
  );
}

/**
 * A cluster's incidents as the placement rule needs them, indexed by member key so a group of thousands
 * places each alert without scanning every member; kept current as this batch opens and joins.
 */
export class ClusterViews {
  private byMemberKey = new Map<string, IncidentView[]>();
  constructor(private views: IncidentView[]) {
    for (const v of views) for (const m of v.members) this.holders(m.memberKey).push(v);
  }
  private holders(key: string): IncidentView[] {
    let list = this.byMemberKey.get(key);
    if (!list) this.byMemberKey.set(key, (list = []));
    return list;
  }
  /** The incidents placeMemberKey could choose: those holding the member key, and the unresolved ones. */
  candidates(key: string): IncidentView[] {
    return [...new Set([...(this.byMemberKey.get(key) ?? []), ...this.views.filter((v) => v.status !== "resolved")])];
  }
  /** Whether the incident has a member row (open or not) for the member key. */
  holds(incidentId: number, key: string): boolean {
    return this.byMemberKey.get(key)?.some((v) => v.id === incidentId) ?? false;
  }
  /** Records where a member key went (an incident this batch opened or reopened included). */
  placed(incidentId: number, key: string, now: Date, reopened: boolean): void {
    let view = this.views.find((v) => v.id === incidentId);
    if (!view) {
      view = { id: incidentId, status: "open", openedAt: now, reopenedAt: null, resolvedAt: null, members: [] };
      this.views.push(view);
    }
    if (reopened && view.status === "resolved") Object.assign(view, { status: "open", reopenedAt: now, resolvedAt: null });
    if (!this.holds(incidentId, key)) {
      view.members.push({ memberKey: key, signal: "", subject: "", source: "alert", healthySince: null });
      this.holders(key).push(view);
    }
  }
}
