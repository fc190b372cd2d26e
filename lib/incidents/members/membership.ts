import { formatConfidence } from "@/lib/diagnosis/confidence";
import { getCatalog, getSignalMap } from "@/lib/catalog/queries";
import type { FailureMode } from "@/lib/catalog/schema";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import { memberKeyOf } from "../rules/member-key";
import { isHealthy } from "../rules/rules";
import type { IncidentView, SubjectState, Severity } from "../rules/rule-types";
import { escalation, worstOf } from "../rules/severity";
import { suspectsChanged } from "@/lib/diagnosis/rank";
import { neededSignals, rankSuspects } from "../suspects/suspects";
import { autoTitle } from "../rules/title";
import { enqueueNotification, isSuspectChange, releaseOpenings } from "@/lib/notifications/outbox";
import { readOr, readSuspects, suspectsJson, type StoredSuspect } from "../stored";
import { appendEvent, appendEventId, RaceLost, type Tx } from "../tx";
import { evidenceTexts } from "../evidence/evidence";
import { incidentAnswers } from "../sessions/answers";

// The writes every path shares (rules, alerts, people): open, join, reopen and resolve an incident, and
// keep its suspects current. Each runs inside the caller's transaction.

export interface MemberInput {
  cluster: string;
  signal: string;
  subject: string;
  source: "signal" | "alert";
  /** In the signals' words for both sources: a firing alert is critical, a resolved one ok. */
  state: SubjectState;
  detail: string;
  /** The signal's problem texts (evidenceTexts): ranked with the detail. */
  texts?: string[];
  severity: Severity;
}

/** A member's texts are replaced only by what reported its signal: absent texts leave the stored ones. */
export const withTexts = (texts: string[] | undefined) => (texts ? { texts } : {});

export interface Links {
  catalog?: { id: string; by: string }[];
  runbooks?: { id: string; by: string }[];
}

export const RULES_ACTOR = "faultline";

export function titleFor(signal: string, subject: string): string {
  const known = getSignalMap().get(signal);
  return `${known?.title ?? signal} (${subject})`;
}

/** The cluster's unresolved incidents and those resolved within the reopen window, with their member keys. */
export async function loadViews(tx: Tx, cluster: string, now: Date, config: IncidentRulesConfig): Promise<IncidentView[]> {
  const since = new Date(now.getTime() - config.reopenWindowSeconds * 1000);
  const rows = await tx.incident.findMany({
    where: { cluster, OR: [{ status: { not: "resolved" } }, { resolvedAt: { gte: since } }] },
    include: { members: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => toIncidentView(r));
}

/** Adds a member key to an incident; returns the incident that holds it (another one if a racing writer got there first). */
export async function joinIncident(tx: Tx, incidentId: number, m: MemberInput, now: Date, actor = RULES_ACTOR): Promise<number> {
  const memberKey = memberKeyOf(m);
  const own = await tx.incidentMember.findUnique({ where: { incidentId_memberKey: { incidentId, memberKey } } });
  if (own?.open) {
    await tx.incidentMember.update({
      where: { id: own.id },
      data: { state: m.state, detail: m.detail.slice(0, 2000), ...withTexts(m.texts), changedAt: now, healthySince: null },
    });
    return incidentId;
  }
  if (own) {
    await tx.incidentMember.update({
      where: { id: own.id },
      data: { open: true, state: m.state, detail: m.detail.slice(0, 2000), texts: m.texts ?? [], changedAt: now, healthySince: null },
    });
  } else {
    const rows = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO "incident_members" ("incident_id", "fingerprint", "cluster", "signal", "subject", "source", "state", "detail", "texts", "open", "joined_at", "changed_at")
      VALUES (${incidentId}, ${memberKey}, ${m.cluster}, ${m.signal}, ${m.subject}, ${m.source}, ${m.state}, ${m.detail.slice(0, 2000)}, ${m.texts ?? []}::text[], true, ${now}, ${now})
      ON CONFLICT ("fingerprint") WHERE "open" DO NOTHING RETURNING "id"`;
    if (rows.length === 0) {
      const holder = await tx.incidentMember.findFirst({ where: { memberKey, open: true }, select: { incidentId: true } });
      if (holder) return holder.incidentId;
      throw new RaceLost(`could not add ${memberKey} to incident ${incidentId}`); // gone again: the retry sorts it out
    }
    await appendEvent(tx, {
      incidentId,
      at: now,
      kind: "member_joined",
      actor,
      summary: `${m.signal} on ${m.subject} joined (${m.state})`,
      payload: { signal: m.signal, subject: m.subject, source: m.source, state: m.state, detail: m.detail },
    });
  }
  const incident = await tx.incident.findUniqueOrThrow({ where: { id: incidentId }, select: { severity: true } });
  const data: { lastSeenAt: Date; updatedAt: Date; severity?: Severity } = { lastSeenAt: now, updatedAt: now };
  const raised = escalation(incident.severity, [m]);
  if (raised) {
    data.severity = raised.to;
    await appendEvent(tx, { incidentId, at: now, kind: "severity_changed", actor, summary: raised.summary, payload: raised.payload });
  }
  await tx.incident.update({ where: { id: incidentId }, data });
  return incidentId;
}

/** Opens an incident for a group of member keys (the first is the one it is named after); joins the existing one on a conflict. */
export async function openIncident(
  tx: Tx,
  group: MemberInput[],
  opts: { now: Date; reason: string; actor?: string; title?: string; links?: Links },
): Promise<{ incidentId: number; created: boolean }> {
  const { now, actor = RULES_ACTOR } = opts;
  const primary = group[0];
  const memberKey = memberKeyOf(primary);
  const severity = (worstOf(group) ?? primary).severity;
  const title = opts.title ?? titleFor(primary.signal, primary.subject);
  const rows = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO "incidents" ("cluster", "fingerprint", "signal", "subject", "title", "severity", "status", "source", "opened_at", "last_seen_at", "links", "updated_at")
    VALUES (${primary.cluster}, ${memberKey}, ${primary.signal}, ${primary.subject}, ${title.slice(0, 300)}, ${severity}, 'open', ${primary.source}, ${now}, ${now}, ${JSON.stringify(opts.links ?? {})}::jsonb, ${now})
    ON CONFLICT ("fingerprint") WHERE "status" <> 'resolved' DO NOTHING RETURNING "id"`;
  let holder: number | undefined;
  if (rows.length === 0) {
    holder = (await tx.incident.findFirst({ where: { memberKey, status: { not: "resolved" } }, select: { id: true } }))?.id;
    if (holder === undefined) throw new RaceLost(`incident for ${memberKey} vanished`); // resolved meanwhile: retry
  } else {
    const id = rows[0].id;
    const members = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO "incident_members" ("incident_id", "fingerprint", "cluster", "signal", "subject", "source", "state", "detail", "texts", "open", "joined_at", "changed_at")
      VALUES (${id}, ${memberKey}, ${primary.cluster}, ${primary.signal}, ${primary.subject}, ${primary.source}, ${primary.state}, ${primary.detail.slice(0, 2000)}, ${primary.texts ?? []}::text[], true, ${now}, ${now})
      ON CONFLICT ("fingerprint") WHERE "open" DO NOTHING RETURNING "id"`;
    if (members.length === 0) {
      // Another writer put this member key in a grouped incident first: drop ours (no events yet) and join that one.
      await tx.incident.delete({ where: { id } });
      holder = (await tx.incidentMember.findFirst({ where: { memberKey, open: true }, select: { incidentId: true } }))?.incidentId;
      if (holder === undefined) throw new RaceLost(`incident for ${memberKey} vanished`);
    } else {
      const eventId = await appendEventId(tx, {
        incidentId: id,
        at: now,
        kind: "status_change",
        actor,
        summary: `opened: ${primary.signal} on ${primary.subject} ${opts.reason}`,
        payload: { to: "open", reason: opts.reason, signal: primary.signal, subject: primary.subject, state: primary.state, detail: primary.detail },
        key: `incident:${id}:opened`,
      });
      if (eventId !== undefined) await enqueueNotification(tx, { incidentId: id, eventId, kind: "opened" });
      for (const m of group.slice(1)) await joinIncident(tx, id, m, now, actor);
      return { incidentId: id, created: true };
    }
  }
  for (const m of group) await joinIncident(tx, holder, m, now, actor);
  return { incidentId: holder, created: false };
}

export async function reopenIncident(tx: Tx, incidentId: number, m: MemberInput, now: Date, reason: string, actor = RULES_ACTOR): Promise<number> {
  const incident = await tx.incident.findUniqueOrThrow({ where: { id: incidentId } });
  if (incident.status !== "resolved") return joinIncident(tx, incidentId, m, now, actor);
  // Member keys that another incident holds now stay there; the unique index would refuse them anyway.
  await tx.$executeRaw`
    UPDATE "incident_members" AS m SET "open" = true
    WHERE m."incident_id" = ${incidentId} AND NOT EXISTS (SELECT 1 FROM "incident_members" o WHERE o."fingerprint" = m."fingerprint" AND o."open")`;
  await tx.incident.update({
    where: { id: incidentId },
    data: { status: "open", resolvedAt: null, resolvedBy: null, reopenedAt: now, reopenCount: { increment: 1 }, lastSeenAt: now, updatedAt: now },
  });
  const eventId = await appendEventId(tx, {
    incidentId,
    at: now,
    kind: "status_change",
    actor,
    summary: `reopened: ${m.signal} on ${m.subject} ${reason}`,
    payload: { from: "resolved", to: "open", reason, signal: m.signal, subject: m.subject, state: m.state, detail: m.detail },
  });
  if (eventId !== undefined) await enqueueNotification(tx, { incidentId, eventId, kind: "reopened" });
  return joinIncident(tx, incidentId, m, now, actor);
}

/** Marks an incident resolved and frees its member keys for new incidents. */
export async function closeIncident(tx: Tx, incidentId: number, now: Date, actor: string, resolution: string | undefined, from: string): Promise<void> {
  await tx.incident.update({
    where: { id: incidentId },
    data: { status: "resolved", resolvedAt: now, resolvedBy: actor, resolution: resolution ?? null, updatedAt: now },
  });
  await tx.incidentMember.updateMany({ where: { incidentId, open: true }, data: { open: false } });
  const eventId = await appendEventId(tx, {
    incidentId,
    at: now,
    kind: "status_change",
    actor,
    summary: `resolved${resolution ? `: ${resolution}` : ""}`,
    payload: { from, to: "resolved", resolution: resolution ?? null },
  });
  if (eventId !== undefined) await enqueueNotification(tx, { incidentId, eventId, kind: "resolved" });
}

/**
 * Ranks the suspects from the incident's active member keys and alert links; records a change on the timeline.
 * With `retitle` (a member fired this round) the title follows the top suspect (title.ts), unless someone gave it:
 * only a title the rules made (the signal's at opening, or the last one they set) is replaced. Members recovering
 * do not rename it: a resolving incident keeps the name of what happened.
 */
/** How far back a member's transitions count as flapping evidence. */
const FLAP_WINDOW_MS = 15 * 60_000;

/**
 * The evidence the diagnosis gets beside the members: how often each member changed state lately (a crash loop
 * flaps), and the cluster's signals that the catalog says must fire for some cause and are ok now.
 */
async function context(tx: Tx, incident: { id: number; cluster: string }, now: Date, healthyNow?: { signal: string; subject: string }[]) {
  const since = new Date(now.getTime() - FLAP_WINDOW_MS);
  const flapRows = await tx.$queryRaw<{ signal: string; subject: string; n: bigint }[]>`
    SELECT "payload"->>'signal' AS "signal", "payload"->>'subject' AS "subject", count(*) AS "n" FROM "incident_events"
    WHERE "incident_id" = ${incident.id} AND "kind" = 'signal_transition' AND "at" >= ${since} GROUP BY 1, 2`;
  const flaps = new Map(flapRows.map((r) => [`${r.signal}\u0000${r.subject}`, Number(r.n)]));
  const needed = neededSignals();
  // The round's own signals when the rules call; what the store holds when an alert does.
  const healthy = healthyNow
    ? healthyNow.filter((h) => needed.has(h.signal))
    : needed.size === 0
      ? []
      : await tx.signalState.findMany({
          where: { cluster: incident.cluster, signal: { in: [...needed] }, state: "ok" },
          select: { signal: true, subject: true },
        });
  return { flaps, healthy };
}

/** A short form of a ranking: what the page shows, so a change of confidence or evidence is stored, not only of order. */
const shown = (suspects: StoredSuspect[]) =>
  JSON.stringify(
    suspects.slice(0, 3).map((s) => [s.id, Math.round((s.confidence ?? 0) * 20), s.undecided?.with, s.supports?.slice(0, 3), s.contradicts?.slice(0, 2)]),
  );

/**
 * Ranks the suspects from the incident's active member keys, its alert links, the evidence it gathered and the
 * answers recorded in its runbook walks; records a change on the timeline.
 */
export async function refreshSuspects(
  tx: Tx,
  incidentId: number,
  now: Date,
  actor = RULES_ACTOR,
  retitle = true,
  healthyNow?: { signal: string; subject: string }[],
): Promise<void> {
  const incident = await tx.incident.findUniqueOrThrow({ where: { id: incidentId }, include: { members: true } });
  await releaseOpenings(tx, incidentId); // its opened/reopened notifications go out with this ranking
  const activeMembers = incident.members.filter((m) => !isHealthy(m.state));
  const links = (incident.links ?? {}) as Links;
  const texts = await evidenceTexts(tx, incidentId);
  const { answers, choices } = await incidentAnswers(tx, incidentId);
  if (activeMembers.length === 0 && !links.catalog?.length && texts.length === 0 && answers.length + choices.length === 0) return; // all healthy: keep what was suspected
  const { flaps, healthy } = await context(tx, incident, now, healthyNow);
  const active = activeMembers.map((m) => ({
    signal: m.signal,
    subject: m.subject,
    state: m.state,
    detail: m.detail,
    texts: m.texts,
    flaps: flaps.get(`${m.signal}\u0000${m.subject}`) ?? 0,
  }));
  const after = rankSuspects({ active, texts, answers, choices, healthy, linked: links.catalog ?? [], entries: getCatalog().entries });
  // A stored ranking that does not read is replaced by this one, as any changed ranking is.
  const before = readOr(() => readSuspects(incident.suspects, incidentId), []).value;
  if (suspectsChanged(before, after) || shown(before) !== shown(after)) {
    await tx.incident.update({ where: { id: incidentId }, data: { suspects: suspectsJson(after), updatedAt: now } });
  }
  if (suspectsChanged(before, after)) {
    const eventId = await appendEventId(tx, {
      incidentId,
      at: now,
      kind: "suspects_changed",
      actor,
      summary: after.length ? `top suspect: ${after[0].title} (${after[0].id}, ${formatConfidence(after[0].confidence, after.length)})` : "no suspects",
      payload: { before: before.map((s) => s.id), after: after.map((s) => ({ id: s.id, score: s.score, confidence: s.confidence, reason: s.reason })) },
    });
    if (eventId !== undefined && isSuspectChange(before[0]?.id, after[0]?.id, incident, now))
      await enqueueNotification(tx, { incidentId, eventId, kind: "suspect_changed" });
  }
  if (!retitle) return;
  const signalTitle = (signal: string) => getSignalMap().get(signal)?.title ?? signal;
  const modeSignals = (id: string) => getCatalog().entries.find((e): e is FailureMode => e.kind === "failure-mode" && e.id === id)?.signals;
  const { title, why } = autoTitle({ signal: incident.signal, subject: incident.subject, active: activeMembers, suspects: after, signalTitle, modeSignals });
  if (title.slice(0, 300) === incident.title) return;
  const lastSet = await tx.incidentEvent.findFirst({ where: { incidentId, kind: "title_changed", actor: RULES_ACTOR }, orderBy: { id: "desc" } });
  const made = [titleFor(incident.signal, incident.subject), (lastSet?.payload as { after?: unknown } | null)?.after];
  if (!made.includes(incident.title)) return; // given by a person or an alert: never overwritten
  await tx.incident.update({ where: { id: incidentId }, data: { title: title.slice(0, 300), updatedAt: now } });
  await appendEvent(tx, {
    incidentId,
    at: now,
    kind: "title_changed",
    actor: RULES_ACTOR,
    summary: `title: ${incident.title} → ${title} (${why})`,
    payload: { before: incident.title, after: title.slice(0, 300), why },
  });
}

type IncidentRow = {
  id: number;
  status: string;
  openedAt: Date;
  reopenedAt: Date | null;
  resolvedAt: Date | null;
  /** The stored ranking (a JSON array of suspects); absent where the caller did not read it. */
  suspects?: unknown;
  members: { memberKey: string; signal: string; subject: string; source: string; state?: string; open?: boolean; healthySince: Date | null }[];
};

/**
 * The ids of the stored suspects, best first, each answer's facets after its root (the same outage seen from
 * elsewhere: what can be its symptom can be theirs); the column is JSON, so anything else reads as none.
 */
export function suspectIds(stored: unknown): string[] {
  if (!Array.isArray(stored)) return [];
  return stored.slice(0, 10).flatMap((s) => {
    const answer = s as { id?: unknown; facets?: unknown } | null;
    const facets = Array.isArray(answer?.facets) ? answer.facets.map((f) => (f as { id?: unknown } | null)?.id) : [];
    return [answer?.id, ...facets].filter((id): id is string => typeof id === "string");
  });
}

/** The states in which a signal a failure mode needs counts as firing for it (rank.ts: an unknown one says nothing). */
export const FIRING_STATES = ["critical", "warning"];

/** The top suspect while a signal that failure mode needs is among the firing ones: an open root cause. */
export function openRoot(suspects: string[], firing: Iterable<string>): string | undefined {
  const top = suspects[0];
  const mode = top ? getCatalog().entries.find((e): e is FailureMode => e.kind === "failure-mode" && e.id === top) : undefined;
  const needs = mode?.diagnosis?.needs ?? [];
  for (const signal of firing) if (needs.includes(signal)) return top;
  return undefined;
}

/**
 * An incident row with its members, as the rules and the alert placement see it. Its open root cause is read from
 * its members' states, or from `firing` (the signals firing among them) where the caller did not read them all.
 */
export function toIncidentView(r: IncidentRow, firing?: string[]): IncidentView {
  const suspects = suspectIds(r.suspects);
  const root = openRoot(suspects, firing ?? r.members.filter((m) => m.open !== false && FIRING_STATES.includes(m.state ?? "")).map((m) => m.signal));
  return {
    id: r.id,
    status: r.status as IncidentView["status"],
    openedAt: r.openedAt,
    reopenedAt: r.reopenedAt,
    resolvedAt: r.resolvedAt,
    suspects,
    ...(root ? { root } : {}),
    members: r.members.map((m) => ({
      memberKey: m.memberKey,
      signal: m.signal,
      subject: m.subject,
      source: m.source as "signal" | "alert",
      healthySince: m.healthySince,
    })),
  };
}
