import { announceIncidents } from "@/lib/live/bus";
import { getCatalog } from "@/lib/catalog/queries";
import type { MappedAlert } from "./alertmanager";
import type { Delivery } from "./alertmanager-delivery";
import { recordGaps, type AlertOutcome } from "./alert-gaps";
import { DEFAULT_RULES_CONFIG, type IncidentRulesConfig } from "@/lib/incident-rules-config";
import { memberKeyOf } from "../rules/member-key";
import { appendEvents, holdersOf, joinMany, resolveMembers } from "./alert-bulk";
import { loadBatchViews, type ClusterViews } from "./alert-placement";
import { joinIncident, openIncident, refreshSuspects, reopenIncident, type Links, type MemberInput } from "../members/membership";
import { placeMemberKey, type Causes } from "../rules/placement";
import { candidatesOf, rankTrigger } from "../rounds/apply-round";
import { namesACause } from "../suspects/suspects";
import { inTransaction, RaceLost, type Db, type EventInput, type Tx } from "../tx";

// Alertmanager deliveries: a firing alert opens or joins an incident like a firing signal (Alertmanager has
// debounced it already with `for:`); a resolved one marks its member key healthy. A delivery is written in
// batches, one transaction each, so a group of thousands never holds one long transaction; every alert has
// an idempotency key, so Alertmanager's retry after a failure part-way adds nothing twice.

export const ALERT_ACTOR = "alertmanager";
/** A firing alert's member state, in the signals' words: Alertmanager judged it worth firing (its severity sets the incident's). */
const ALERT_FIRING = "critical";
/** Alerts per transaction: small enough to stay far inside the transaction timeout, large enough to be quick. */
export const ALERT_BATCH = 250;
const SUSPECT_BATCH = 50;

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
const keyOf = (a: MappedAlert) => `alertmanager:${a.alertFingerprint}:${a.startsAt.toISOString()}:${a.status}`;

const known = new WeakMap<object, { entryIds: Set<string>; runbookIds: Set<string> }>();

function links(alert: MappedAlert): { links: Links; unknown: string[] } {
  const catalog = getCatalog();
  let ids = known.get(catalog);
  if (!ids) known.set(catalog, (ids = { entryIds: new Set(catalog.entries.map((e) => e.id)), runbookIds: new Set(catalog.runbooks.map((r) => r.id)) }));
  const { entryIds, runbookIds } = ids;
  const unknown = [
    ...alert.catalogIds.filter((id) => !entryIds.has(id)).map((id) => `catalog/${id}`),
    ...alert.runbookIds.filter((id) => !runbookIds.has(id)).map((id) => `runbooks/${id}`),
  ];
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
  await tx.incident.update({
    where: { id: incidentId },
    data: { links: { catalog: merge(current.catalog, add.catalog), runbooks: merge(current.runbooks, add.runbooks) } },
  });
}

const eventPayload = (a: MappedAlert, unknown: string[], cleaned: string) => ({
  alertname: a.alertname,
  fingerprint: a.alertFingerprint,
  startsAt: a.startsAt.toISOString(),
  endsAt: a.endsAt?.toISOString() ?? null,
  labels: a.labels,
  annotations: a.annotations,
  generatorURL: a.generatorURL,
  unknownLinks: unknown,
  catalogAlert: a.catalogAlert,
  unknownWords: a.unknownWords,
  ...(cleaned ? { cleaned } : {}),
});

interface Fresh {
  index: number;
  item: Item;
  key: string;
  member: MemberInput;
  found: Links;
  unknown: string[];
}

const outcomeBase = ({ alert: a, cleaned }: Item, unknown: string[]) => ({
  alert: `${a.alertname} (${a.target})`,
  status: a.status,
  unknownLinks: unknown,
  ...(cleaned ? { cleaned } : {}),
});
const received = (f: Fresh, incidentId: number, at: Date): EventInput => {
  const a = f.item.alert;
  return {
    incidentId,
    at,
    kind: "alert_received",
    actor: ALERT_ACTOR,
    summary: `${a.alertname} on ${a.target} firing: ${a.title}`,
    payload: eventPayload(a, f.unknown, f.item.cleaned),
    key: f.key,
  };
};

/** The member key an alert had before the catalog mapped it (fired under an older catalog, it is still there). */
const unmappedKey = (a: MappedAlert) => (a.unmapped ? memberKeyOf({ cluster: a.cluster, ...a.unmapped }) : undefined);

/** Resolved alerts: their holders found in one query, members and events written in one statement each. */
async function resolveBatch(tx: Tx, fresh: Fresh[], now: Date, outcomes: AlertOutcome[]): Promise<void> {
  const holders = await holdersOf(
    tx,
    fresh.flatMap((f) => {
      const a = f.item.alert;
      return [memberKeyOf(a), unmappedKey(a)].flatMap((memberKey) => (memberKey ? [{ cluster: a.cluster, memberKey }] : []));
    }),
  );
  const holderOf = (a: MappedAlert) => holders.get(memberKeyOf(a)) ?? holders.get(unmappedKey(a) ?? "");
  const members: { id: number; healthySince: Date }[] = [];
  const events: EventInput[] = [];
  for (const f of fresh) {
    const a = f.item.alert;
    const holder = holderOf(a);
    if (!holder) {
      outcomes[f.index] = { ...outcomeBase(f.item, f.unknown), incidentId: null, result: "unmatched" };
      continue;
    }
    if (holder.open && holder.source === "alert") members.push({ id: holder.id, healthySince: a.endsAt ?? now });
    events.push({
      incidentId: holder.incidentId,
      at: now,
      kind: "alert_resolved",
      actor: ALERT_ACTOR,
      summary: `${a.alertname} on ${a.target} resolved`,
      payload: eventPayload(a, f.unknown, f.item.cleaned),
      key: f.key,
    });
  }
  await resolveMembers(tx, members, now);
  const added = await appendEvents(tx, events);
  for (const f of fresh)
    outcomes[f.index] ??= {
      ...outcomeBase(f.item, f.unknown),
      incidentId: holderOf(f.item.alert)!.incidentId,
      result: added.has(f.key) ? "recorded" : "duplicate",
    };
}

/**
 * Firing alerts: placed in order as the rules place a signal. The first of a group opens (or reopens) its
 * incident one by one; the many that join it are written set-based per incident.
 */
async function fireBatch(tx: Tx, fresh: Fresh[], now: Date, config: IncidentRulesConfig, outcomes: AlertOutcome[]): Promise<number[]> {
  const views = new Map<string, ClusterViews>();
  // An alert's own suspects, as the rules rank a signal alone: from what its cause is read from, so the thousands
  // of alerts of one rule (a label apart) are ranked once. Only an incident with suspects asks (placement.ts).
  const rankings = new Map<string, string[]>();
  const causesOf = (a: MappedAlert): Causes => ({
    ranked: () => {
      const key = [a.signal, ...a.causeTexts].join("\u0000");
      let ranked = rankings.get(key);
      if (!ranked) rankings.set(key, (ranked = rankTrigger({ signal: a.signal, subject: a.subject, state: ALERT_FIRING, detail: "", texts: a.causeTexts })));
      return ranked;
    },
    candidates: candidatesOf(a.signal),
    // An alert that says nothing Faultline reads places by member key and time, as before.
    ...(a.causeTexts.length > 0 ? { specific: () => namesACause(a.causeTexts) } : {}),
  });
  const joining = new Map<number, Fresh[]>();
  const events: EventInput[] = [];
  const touched = new Map<number, Links>();
  const place = (f: Fresh, incidentId: number) => {
    const add = touched.get(incidentId) ?? {};
    touched.set(incidentId, {
      catalog: [...(add.catalog ?? []), ...(f.found.catalog ?? [])],
      runbooks: [...(add.runbooks ?? []), ...(f.found.runbooks ?? [])],
    });
    events.push(received(f, incidentId, now));
    outcomes[f.index] = { ...outcomeBase(f.item, f.unknown), incidentId, result: "recorded" };
  };
  for (const f of fresh) {
    const a = f.item.alert;
    const memberKey = memberKeyOf(a);
    let cluster = views.get(a.cluster);
    if (!cluster) {
      const memberKeys = fresh.filter((g) => g.item.alert.cluster === a.cluster).map((g) => memberKeyOf(g.item.alert));
      views.set(a.cluster, (cluster = await loadBatchViews(tx, a.cluster, memberKeys, now, config)));
    }
    const placement = placeMemberKey(memberKey, cluster.candidates(memberKey), now, config, causesOf(a));
    let incidentId: number;
    if (placement.kind === "open") {
      incidentId = (
        await openIncident(tx, [f.member], {
          now,
          reason: `(alert ${a.alertname} firing since ${a.startsAt.toISOString()})`,
          actor: ALERT_ACTOR,
          title: a.title,
          links: f.found,
        })
      ).incidentId;
    } else if (placement.kind === "reopen") {
      incidentId = await reopenIncident(tx, placement.incidentId, f.member, now, `(alert ${a.alertname} firing again)`, ALERT_ACTOR);
    } else if (!cluster.holds(placement.incidentId, memberKey)) {
      joining.set(placement.incidentId, [...(joining.get(placement.incidentId) ?? []), f]); // new to the incident: written set-based below
      cluster.placed(placement.incidentId, memberKey, now, false);
      continue;
    } else {
      incidentId = await joinIncident(tx, placement.incidentId, f.member, now, ALERT_ACTOR);
    }
    cluster.placed(incidentId, memberKey, now, placement.kind === "reopen");
    place(f, incidentId);
  }
  for (const [incidentId, list] of joining) {
    const left = await joinMany(
      tx,
      incidentId,
      list.map((f) => f.member),
      now,
      ALERT_ACTOR,
    );
    for (const f of list) if (!left.includes(f.member)) place(f, incidentId);
    // Held open by another incident since the views were read (a racing writer): join where it is.
    for (const f of list) if (left.includes(f.member)) place(f, await joinIncident(tx, incidentId, f.member, now, ALERT_ACTOR));
  }
  const added = await appendEvents(tx, events);
  if (added.size < events.length) throw new RaceLost("duplicate delivery raced"); // the retry sees the other delivery's events and reports duplicates
  for (const [incidentId, add] of touched) await addLinks(tx, incidentId, add);
  return [...touched.keys()];
}

/** One batch in one transaction: alerts already recorded are skipped with one query. */
async function ingestBatch(tx: Tx, batch: Item[], now: Date, config: IncidentRulesConfig): Promise<{ outcomes: AlertOutcome[]; touched: number[] }> {
  const keys = batch.map((i) => keyOf(i.alert));
  const rows = await tx.incidentEvent.findMany({ where: { idempotencyKey: { in: keys } }, select: { idempotencyKey: true, incidentId: true } });
  const done = new Map<string, number>(rows.map((r) => [r.idempotencyKey!, r.incidentId]));
  const outcomes: AlertOutcome[] = new Array(batch.length);
  const fresh: Fresh[] = [];
  const seen = new Set<string>();
  batch.forEach((item, index) => {
    const a = item.alert;
    const { links: found, unknown } = links(a);
    if (done.has(keys[index]) || seen.has(keys[index])) {
      // Recorded before, or the same alert twice in this delivery: once is enough.
      outcomes[index] = { ...outcomeBase(item, unknown), incidentId: done.get(keys[index]) ?? null, result: "duplicate" };
      return;
    }
    seen.add(keys[index]);
    const member: MemberInput = {
      cluster: a.cluster,
      signal: a.signal,
      subject: a.subject,
      source: "alert",
      state: ALERT_FIRING,
      detail: a.title,
      texts: a.texts,
      severity: a.severity,
    };
    fresh.push({ index, item, key: keys[index], member, found, unknown });
  });
  await resolveBatch(
    tx,
    fresh.filter((f) => f.item.alert.status === "resolved"),
    now,
    outcomes,
  );
  const touched = await fireBatch(
    tx,
    fresh.filter((f) => f.item.alert.status === "firing"),
    now,
    config,
    outcomes,
  );
  return { outcomes, touched };
}

/** Records a checked delivery batch by batch; refused alerts keep their place in the outcomes. */
export async function ingestDelivery(db: Db, delivery: Delivery, opts: { now?: Date; config?: IncidentRulesConfig } = {}): Promise<AlertOutcome[]> {
  const now = opts.now ?? new Date();
  const config = opts.config ?? DEFAULT_RULES_CONFIG;
  const total = delivery.alerts.length + delivery.refused.length;
  const outcomes: AlertOutcome[] = new Array(total);
  for (const r of delivery.refused)
    outcomes[r.index] = { alert: r.alert, status: delivery.status, incidentId: null, result: "refused", unknownLinks: [], fields: r.fields };
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
  // Suspects are ranked once per delivery (an incident's ranking reads all its members), also on a redelivery,
  // so a retry after a failure here still ranks them.
  const firing = [...new Set(outcomes.flatMap((o) => (o.status === "firing" && o.incidentId !== null ? [o.incidentId] : [])))];
  try {
    for (let start = 0; start < firing.length; start += SUSPECT_BATCH) {
      await inTransaction(db, async (tx) => {
        for (const id of firing.slice(start, start + SUSPECT_BATCH)) await refreshSuspects(tx, id, now, ALERT_ACTOR);
      });
    }
    const gapped = await inTransaction(db, (tx) => recordGaps(tx, delivery, outcomes, now));
    announceIncidents([...new Set([...firing, ...gapped])]);
  } catch (error) {
    throw new DeliveryFailed(delivery.alerts.length, delivery.alerts.length, error);
  }
  return outcomes;
}
