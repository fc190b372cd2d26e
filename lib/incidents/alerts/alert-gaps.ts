import { createHash } from "node:crypto";
import type { Delivery } from "./alertmanager-delivery";
import { appendEvent, type Tx } from "../tx";

// What a delivery did not bring: alerts Alertmanager left out (max_alerts, sent as truncatedAlerts) and alerts
// Faultline refused. Each incident the delivery's alerts went to gets one event per delivery, so the on-call
// knows the group is bigger than what the incident shows.

/** What became of one alert of a delivery (ingest-alerts.ts writes it; the gaps are counted from it). */
export interface AlertOutcome {
  alert: string;
  status: "firing" | "resolved";
  incidentId: number | null;
  /** recorded; duplicate (delivered before); unmatched (resolved, but no incident holds it); refused (invalid, see fields) */
  result: "recorded" | "duplicate" | "unmatched" | "refused";
  unknownLinks: string[];
  /** Why a refused alert was refused, per field. */
  fields?: Record<string, string[]>;
  /** What cleaning changed in this alert ("1 character replaced"), when anything. */
  cleaned?: string;
}

const SHOWN_REFUSALS = 20;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export const truncatedSummary = (n: number) => `Alertmanager left out ${plural(n, "alert")} of this group`;
export const refusedSummary = (n: number) => `Faultline refused ${plural(n, "alert")} of this group`;

/** The same delivery retried makes the same key: the delivery's identity is its group and its alerts. */
function deliveryKey(delivery: Delivery, outcomes: AlertOutcome[]): string {
  const hash = createHash("sha256").update(delivery.groupKey).update(`\n${delivery.truncatedAlerts}\n`);
  for (const a of delivery.alerts) hash.update(`${a.alert.alertFingerprint}:${a.alert.startsAt.toISOString()}:${a.alert.status}\n`);
  for (const r of delivery.refused) hash.update(`refused:${r.index}:${r.alertFingerprint}\n`);
  hash.update(String(outcomes.length));
  return hash.digest("hex").slice(0, 32);
}

/** Records the gaps on every incident the delivery's alerts went to; returns those incidents. */
export async function recordGaps(tx: Tx, delivery: Delivery, outcomes: AlertOutcome[], now: Date): Promise<number[]> {
  const { truncatedAlerts, refused } = delivery;
  if (truncatedAlerts === 0 && refused.length === 0) return [];
  const here = new Map<number, number>();
  for (const o of outcomes) if (o.incidentId !== null) here.set(o.incidentId, (here.get(o.incidentId) ?? 0) + 1);
  const key = deliveryKey(delivery, outcomes);
  const common = { groupKey: delivery.groupKey, receiver: delivery.receiver, delivered: outcomes.length };
  const shown = refused.slice(0, SHOWN_REFUSALS).map((r) => ({ index: r.index, alert: r.alert, fingerprint: r.alertFingerprint, fields: r.fields }));
  const why = refused.length
    ? Object.entries(refused[0].fields)
        .map(([field, messages]) => `${field} ${messages.join(", ")}`)
        .join("; ")
    : "";
  const written = new Set<number>();
  for (const [incidentId, alertsHere] of here) {
    const events = [
      truncatedAlerts > 0 && {
        kind: "alerts_truncated" as const,
        actor: "alertmanager",
        summary: `${truncatedSummary(truncatedAlerts)} (it sent ${plural(outcomes.length, "alert")}; raise max_alerts to receive them)`,
        payload: { ...common, truncatedAlerts, alertsHere },
      },
      refused.length > 0 && {
        kind: "alerts_refused" as const,
        actor: "faultline",
        summary: `${refusedSummary(refused.length)}, e.g. ${refused[0].alert}: ${why}`,
        payload: { ...common, refused: refused.length, shown },
      },
    ];
    for (const e of events) if (e && (await appendEvent(tx, { incidentId, at: now, ...e, key: `${e.kind}:${incidentId}:${key}` }))) written.add(incidentId);
  }
  return [...written];
}
