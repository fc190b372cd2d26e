import { announceIncidents } from "@/lib/monitor/changes";
import { getCatalog } from "@/lib/catalog/queries";
import { mapAlert, type AlertmanagerPayload, type MappedAlert } from "./alertmanager";
import type { Delivery } from "./alertmanager-delivery";
import { recordGaps } from "./alert-gaps";
import { DEFAULT_RULES_CONFIG, type IncidentRulesConfig } from "./config";
import { fingerprintOf } from "./fingerprint";
import { joinIncident, loadViews, openIncident, refreshSuspects, reopenIncident, type Links, type MemberInput } from "./membership";
import { placeFingerprint, type IncidentView } from "./rules";
import { appendEvent, inTransaction, RaceLost, type Db, type Tx } from "./tx";

// Alertmanager deliveries: a firing alert opens or joins an incident like a firing signal (Alertmanager has
// debounced it already with `for:`); a resolved one marks its fingerprint healthy. A delivery is written in
// batches, one transaction each, so a group of thousands never holds one long transaction; every alert has
// an idempotency key, so Alertmanager's retry after a failure part-way adds nothing twice.

export const ALERT_ACTOR = "alertmanager";
/** Alerts per transaction: small enough to stay far inside the transaction timeout, large enough to be quick. */
export const ALERT_BATCH = 250;

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

/** A store failure part-way through a delivery: the batches before it are committed, the retry skips them. */
export class DeliveryFailed extends Error {
  constructor(
    readonly committed: number,
    readonly total: number,
    readonly reason: unknown,
  ) {
    super(`stored ${committed} of ${total} alerts, then: ${(reason as Error)?.message?.split("\n").pop() ?? String(reason)}`);
  }
}

type Item = Delivery["alerts"][number];
const keyOf = (a: MappedAlert) => `alertmanager:${a.fingerprint}:${a.startsAt.toISOString()}:${a.status}`;

function links(alert: MappedAlert): { links: Links; unknown: string[] } {
  const catalog = getCatalog();
  const entryIds = new Set(catalog.entries.map((e) => e.id));
  const runbookIds = new Set(catalog.runbooks.map((r) => r.id));
  const unknown = [...alert.catalogIds.filter((id) => !entryIds.has(id)).map((id) => `catalog/${id}`), ...alert.runbookIds.filter((id) => !runbookIds.has(id)).map((id) => `runbooks/${id}`)];
  return {
    links: {
      catalog: alert.catalogIds.filter((id) => entryIds.has(id)).map((id) => ({ id, by: alert.alertname })),
      runbooks: alert.runbookIds.filter((id) => runbookIds.has(id)).map((id) => ({ id, by: alert.alertname })),
    },
    unknown,
  };
}

async function addLinks(tx: Tx, incidentId: number, add: Links): Promise<void> {
  if (!add.catalog?.length && !add.runbooks?.length) return;
  const incident = await tx.incident.findUniqueOrThrow({ where: { id: incidentId }, select: { links: true } });
  const current = (incident.links ?? {}) as Links;
  const merge = (a: Links["catalog"] = [], b: Links["catalog"] = []) => [...a, ...b.filter((x) => !a.some((y) => y.id === x.id && y.by === x.by))];
  await tx.incident.update({ where: { id: incidentId }, data: { links: { catalog: merge(current.catalog, add.catalog), runbooks: merge(current.runbooks, add.runbooks) } } });
}

const eventPayload = (a: MappedAlert, unknown: string[], cleaned: string) => ({
  alertname: a.alertname,
  fingerprint: a.fingerprint,
  startsAt: a.startsAt.toISOString(),
  endsAt: a.endsAt?.toISOString() ?? null,
  labels: a.labels,
  annotations: a.annotations,
  generatorURL: a.generatorURL,
  unknownLinks: unknown,
  ...(cleaned ? { cleaned } : {}),
});

/**
 * A cluster's incidents as the placement rule needs them, indexed by fingerprint so a group of thousands
 * places each alert without scanning every member; kept current as this batch opens and joins.
 */
class ClusterViews {
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
  placed(incidentId: number, fp: string, now: Date, opened: boolean, reopened: boolean): void {
    let view = this.views.find((v) => v.id === incidentId);
    if (!view) {
      view = { id: incidentId, status: "open", openedAt: now, reopenedAt: null, resolvedAt: null, members: [] };
      this.views.push(view);
    }
    if (reopened && view.status === "resolved") Object.assign(view, { status: "open", reopenedAt: now, resolvedAt: null });
    if (opened || !view.members.some((m) => m.fingerprint === fp)) {
      view.members.push({ fingerprint: fp, signal: "", subject: "", source: "alert", healthySince: null });
      this.holders(fp).push(view);
    }
  }
}

interface BatchContext {
  tx: Tx;
  now: Date;
  config: IncidentRulesConfig;
  views: Map<string, ClusterViews>;
  touched: Set<number>;
  links: Map<number, Links>;
}

async function viewsFor(ctx: BatchContext, cluster: string): Promise<ClusterViews> {
  let views = ctx.views.get(cluster);
  if (!views) ctx.views.set(cluster, (views = new ClusterViews(await loadViews(ctx.tx, cluster, ctx.now, ctx.config))));
  return views;
}

async function ingestOne(ctx: BatchContext, { alert: a, cleaned }: Item): Promise<AlertOutcome> {
  const { tx, now, config } = ctx;
  const key = keyOf(a);
  const { links: found, unknown } = links(a);
  const base = { alert: `${a.alertname} (${a.subject})`, status: a.status, unknownLinks: unknown, ...(cleaned ? { cleaned } : {}) };
  const member: MemberInput = { cluster: a.cluster, signal: a.signal, subject: a.subject, source: "alert", state: a.status, detail: a.title, severity: a.severity };
  const fingerprint = fingerprintOf(a);
  if (a.status === "resolved") {
    const holder = await tx.incidentMember.findFirst({ where: { fingerprint }, orderBy: [{ open: "desc" }, { id: "desc" }] });
    if (!holder) return { ...base, incidentId: null, result: "unmatched" };
    if (holder.open && holder.source === "alert") {
      await tx.incidentMember.update({ where: { id: holder.id }, data: { state: "resolved", changedAt: now, healthySince: a.endsAt ?? now } });
    }
    const recorded = await appendEvent(tx, { incidentId: holder.incidentId, at: now, kind: "alert_resolved", actor: ALERT_ACTOR, summary: `${a.alertname} on ${a.subject} resolved`, payload: eventPayload(a, unknown, cleaned), key });
    return { ...base, incidentId: holder.incidentId, result: recorded ? "recorded" : "duplicate" };
  }
  const views = await viewsFor(ctx, a.cluster);
  const placement = placeFingerprint(fingerprint, views.candidates(fingerprint), now, config);
  let incidentId: number;
  if (placement.kind === "open") {
    incidentId = (await openIncident(tx, [member], { now, reason: `(alert ${a.alertname} firing since ${a.startsAt.toISOString()})`, actor: ALERT_ACTOR, title: a.title, links: found })).incidentId;
  } else if (placement.kind === "reopen") {
    incidentId = await reopenIncident(tx, placement.incidentId, member, now, `(alert ${a.alertname} firing again)`, ALERT_ACTOR);
  } else {
    incidentId = await joinIncident(tx, placement.incidentId, member, now, ALERT_ACTOR);
  }
  views.placed(incidentId, fingerprint, now, placement.kind === "open", placement.kind === "reopen");
  const add = ctx.links.get(incidentId) ?? {};
  ctx.links.set(incidentId, { catalog: [...(add.catalog ?? []), ...(found.catalog ?? [])], runbooks: [...(add.runbooks ?? []), ...(found.runbooks ?? [])] });
  const recorded = await appendEvent(tx, { incidentId, at: now, kind: "alert_received", actor: ALERT_ACTOR, summary: `${a.alertname} on ${a.subject} firing: ${a.title}`, payload: eventPayload(a, unknown, cleaned), key });
  if (!recorded) throw new RaceLost("duplicate delivery raced"); // the retry sees the other delivery's event and reports a duplicate
  ctx.touched.add(incidentId);
  return { ...base, incidentId, result: "recorded" };
}

/** One batch in one transaction: alerts already recorded are skipped with one query, suspects ranked once per incident. */
async function ingestBatch(tx: Tx, batch: Item[], now: Date, config: IncidentRulesConfig): Promise<{ outcomes: AlertOutcome[]; touched: number[] }> {
  const keys = batch.map((i) => keyOf(i.alert));
  const rows = await tx.incidentEvent.findMany({ where: { idempotencyKey: { in: keys } }, select: { idempotencyKey: true, incidentId: true } });
  const done = new Map<string, number | null>(rows.map((r) => [r.idempotencyKey!, r.incidentId]));
  const ctx: BatchContext = { tx, now, config, views: new Map(), touched: new Set(), links: new Map() };
  const outcomes: AlertOutcome[] = [];
  for (const item of batch) {
    const key = keyOf(item.alert);
    if (done.has(key)) {
      const a = item.alert;
      outcomes.push({ alert: `${a.alertname} (${a.subject})`, status: a.status, incidentId: done.get(key) ?? null, result: "duplicate", unknownLinks: links(a).unknown });
      continue;
    }
    const outcome = await ingestOne(ctx, item);
    outcomes.push(outcome);
    done.set(key, outcome.incidentId); // the same alert twice in one delivery is recorded once
  }
  for (const [incidentId, add] of ctx.links) await addLinks(tx, incidentId, add);
  for (const incidentId of ctx.touched) await refreshSuspects(tx, incidentId, now, ALERT_ACTOR);
  return { outcomes, touched: [...ctx.touched] };
}

/** Records a checked delivery batch by batch; refused alerts keep their place in the outcomes. */
export async function ingestDelivery(db: Db, delivery: Delivery, opts: { now?: Date; config?: IncidentRulesConfig } = {}): Promise<AlertOutcome[]> {
  const now = opts.now ?? new Date();
  const config = opts.config ?? DEFAULT_RULES_CONFIG;
  const total = delivery.alerts.length + delivery.refused.length;
  const outcomes: AlertOutcome[] = new Array(total);
  for (const r of delivery.refused) outcomes[r.index] = { alert: r.alert, status: delivery.status, incidentId: null, result: "refused", unknownLinks: [], fields: r.fields };
  for (let start = 0; start < delivery.alerts.length; start += ALERT_BATCH) {
    const batch = delivery.alerts.slice(start, start + ALERT_BATCH);
    let result: Awaited<ReturnType<typeof ingestBatch>>;
    try {
      result = await inTransaction(db, (tx) => ingestBatch(tx, batch, now, config));
    } catch (error) {
      throw new DeliveryFailed(start, delivery.alerts.length, error);
    }
    result.outcomes.forEach((o, i) => (outcomes[batch[i].index] = o));
    if (result.touched.length > 0) announceIncidents(result.touched);
  }
  let gapped: number[];
  try {
    gapped = await recordGaps(db, delivery, outcomes, now);
  } catch (error) {
    throw new DeliveryFailed(delivery.alerts.length, delivery.alerts.length, error);
  }
  if (gapped.length > 0) announceIncidents(gapped);
  return outcomes;
}

/** Records a delivery whose alerts are all valid (already parsed with AlertmanagerPayload). */
export async function ingestAlertmanager(db: Db, payload: AlertmanagerPayload, opts: { cluster?: string; now?: Date; config?: IncidentRulesConfig } = {}): Promise<AlertOutcome[]> {
  const alerts = payload.alerts.map((alert, index) => ({ index, alert: mapAlert(alert, payload, opts.cluster), cleaned: "" }));
  const delivery: Delivery = { groupKey: payload.groupKey, receiver: payload.receiver, status: payload.status, truncatedAlerts: payload.truncatedAlerts ?? 0, alerts, refused: [], cleaned: { replaced: 0, clipped: 0, dropped: 0 } };
  return ingestDelivery(db, delivery, opts);
}
