import { announceIncidents } from "@/lib/monitor/changes";
import { getCatalog } from "@/lib/catalog/queries";
import { mapAlert, type AlertmanagerPayload, type MappedAlert } from "./alertmanager";
import { DEFAULT_RULES_CONFIG, type IncidentRulesConfig } from "./config";
import { fingerprintOf } from "./fingerprint";
import { joinIncident, loadViews, openIncident, refreshSuspects, reopenIncident, type Links, type MemberInput } from "./membership";
import { placeFingerprint } from "./rules";
import { appendEvent, eventExists, inTransaction, RaceLost, type Db, type Tx } from "./tx";

// Alertmanager deliveries: a firing alert opens or joins an incident like a firing signal (Alertmanager has
// debounced it already with `for:`); a resolved one marks its fingerprint healthy. One transaction per
// delivery, so Alertmanager's retry after a failure finds nothing half-done, and a redelivery adds nothing.

export const ALERT_ACTOR = "alertmanager";

export interface AlertOutcome {
  alert: string;
  status: "firing" | "resolved";
  incidentId: number | null;
  /** recorded; duplicate (delivered before); unmatched (resolved, but no incident holds it) */
  result: "recorded" | "duplicate" | "unmatched";
  unknownLinks: string[];
}

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

const eventPayload = (a: MappedAlert, unknown: string[]) => ({
  alertname: a.alertname,
  fingerprint: a.fingerprint,
  startsAt: a.startsAt.toISOString(),
  endsAt: a.endsAt?.toISOString() ?? null,
  labels: a.labels,
  annotations: a.annotations,
  generatorURL: a.generatorURL,
  unknownLinks: unknown,
});

async function ingestOne(tx: Tx, a: MappedAlert, now: Date, config: IncidentRulesConfig): Promise<AlertOutcome> {
  const key = `alertmanager:${a.fingerprint}:${a.startsAt.toISOString()}:${a.status}`;
  const { links: found, unknown } = links(a);
  const base = { alert: `${a.alertname} (${a.subject})`, status: a.status, unknownLinks: unknown };
  if (await eventExists(tx, key)) return { ...base, incidentId: null, result: "duplicate" };
  const member: MemberInput = { cluster: a.cluster, signal: a.signal, subject: a.subject, source: "alert", state: a.status, detail: a.title, severity: a.severity };
  const fingerprint = fingerprintOf(a);
  if (a.status === "resolved") {
    const holder = await tx.incidentMember.findFirst({ where: { fingerprint }, orderBy: [{ open: "desc" }, { id: "desc" }] });
    if (!holder) return { ...base, incidentId: null, result: "unmatched" };
    if (holder.open && holder.source === "alert") {
      await tx.incidentMember.update({ where: { id: holder.id }, data: { state: "resolved", changedAt: now, healthySince: a.endsAt ?? now } });
    }
    const recorded = await appendEvent(tx, { incidentId: holder.incidentId, at: now, kind: "alert_resolved", actor: ALERT_ACTOR, summary: `${a.alertname} on ${a.subject} resolved`, payload: eventPayload(a, unknown), key });
    return { ...base, incidentId: holder.incidentId, result: recorded ? "recorded" : "duplicate" };
  }
  const placement = placeFingerprint(fingerprint, await loadViews(tx, a.cluster, now, config), now, config);
  let incidentId: number;
  if (placement.kind === "open") {
    incidentId = (await openIncident(tx, [member], { now, reason: `(alert ${a.alertname} firing since ${a.startsAt.toISOString()})`, actor: ALERT_ACTOR, title: a.title, links: found })).incidentId;
  } else if (placement.kind === "reopen") {
    incidentId = await reopenIncident(tx, placement.incidentId, member, now, `(alert ${a.alertname} firing again)`, ALERT_ACTOR);
  } else {
    incidentId = await joinIncident(tx, placement.incidentId, member, now, ALERT_ACTOR);
  }
  await addLinks(tx, incidentId, found);
  const recorded = await appendEvent(tx, { incidentId, at: now, kind: "alert_received", actor: ALERT_ACTOR, summary: `${a.alertname} on ${a.subject} firing: ${a.title}`, payload: eventPayload(a, unknown), key });
  if (!recorded) throw new RaceLost("duplicate delivery raced"); // the retry sees the other delivery's event and reports a duplicate
  await refreshSuspects(tx, incidentId, now, ALERT_ACTOR);
  return { ...base, incidentId, result: "recorded" };
}

/** Records one webhook delivery; every alert in it is committed together or not at all. */
export async function ingestAlertmanager(db: Db, payload: AlertmanagerPayload, opts: { cluster?: string; now?: Date; config?: IncidentRulesConfig } = {}): Promise<AlertOutcome[]> {
  const now = opts.now ?? new Date();
  const alerts = payload.alerts.map((alert) => mapAlert(alert, payload, opts.cluster));
  const outcomes = await inTransaction(db, async (tx) => {
    const outcomes: AlertOutcome[] = [];
    for (const alert of alerts) outcomes.push(await ingestOne(tx, alert, now, opts.config ?? DEFAULT_RULES_CONFIG));
    return outcomes;
  });
  const touched = outcomes.flatMap((o) => (o.result === "recorded" && o.incidentId !== null ? [o.incidentId] : []));
  if (touched.length > 0) announceIncidents([...new Set(touched)]);
  return outcomes;
}
