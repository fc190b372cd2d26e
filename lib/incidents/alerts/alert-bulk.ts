import { memberKeyOf } from "../rules/member-key";
import type { MemberInput } from "../members/membership";
import type { Severity } from "../rules/rule-types";
import { escalation } from "../rules/severity";
import { payloadJson, type EventInput, type Tx } from "../tx";

// Set-based writes for a batch of alerts: one statement for many rows where the one-alert path (membership.ts)
// takes five round trips per alert. Same rows, same unique indexes, same idempotency keys.

/** Appends events in one statement; returns the keys that were new (events without a key are always written). */
export async function appendEvents(tx: Tx, events: EventInput[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = await tx.$queryRaw<{ key: string | null }[]>`
    INSERT INTO "incident_events" ("incident_id", "at", "kind", "actor", "summary", "payload", "idempotency_key")
    SELECT * FROM unnest(
      ${events.map((e) => e.incidentId)}::int[], ${events.map((e) => e.at.toISOString())}::timestamptz[], ${events.map((e) => e.kind)}::text[],
      ${events.map((e) => e.actor.slice(0, 200))}::text[], ${events.map((e) => e.summary.slice(0, 2000))}::text[],
      ${events.map((e) => payloadJson(e.payload ?? {}))}::jsonb[], ${events.map((e) => e.key ?? null)}::text[])
    ON CONFLICT ("idempotency_key") DO NOTHING RETURNING "idempotency_key" AS key`;
  return new Set(rows.flatMap((r) => (r.key ? [r.key] : [])));
}

/**
 * Adds member keys new to an incident as open members, with their member_joined events, a severity raise and
 * lastSeenAt. Returns the members it could not add (another incident holds them open): the caller joins those one by one.
 */
export async function joinMany(tx: Tx, incidentId: number, members: MemberInput[], now: Date, actor: string): Promise<MemberInput[]> {
  if (members.length === 0) return [];
  const memberKeys = members.map(memberKeyOf);
  const at = now.toISOString();
  // A member's texts travel as one JSON array each (PostgreSQL has no array of arrays of varying length).
  const rows = await tx.$queryRaw<{ memberKey: string }[]>`
    INSERT INTO "incident_members" ("incident_id", "fingerprint", "cluster", "signal", "subject", "source", "state", "detail", "texts", "open", "joined_at", "changed_at")
    SELECT ${incidentId}, f, c, s, u, 'alert', st, d, ARRAY(SELECT jsonb_array_elements_text(t)), true, ${at}::timestamptz, ${at}::timestamptz
    FROM unnest(${memberKeys}::text[], ${members.map((m) => m.cluster)}::text[], ${members.map((m) => m.signal)}::text[], ${members.map((m) => m.subject)}::text[],
                ${members.map((m) => m.state)}::text[], ${members.map((m) => m.detail.slice(0, 2000))}::text[],
                ${members.map((m) => JSON.stringify(m.texts ?? []))}::jsonb[]) AS v(f, c, s, u, st, d, t)
    ON CONFLICT ("fingerprint") WHERE "open" DO NOTHING RETURNING "fingerprint" AS "memberKey"`;
  const added = new Set(rows.map((r) => r.memberKey));
  const joined = members.filter((_, i) => added.has(memberKeys[i]));
  await appendEvents(
    tx,
    joined.map((m) => ({
      incidentId,
      at: now,
      kind: "member_joined" as const,
      actor,
      summary: `${m.signal} on ${m.subject} joined (${m.state})`,
      payload: { signal: m.signal, subject: m.subject, source: m.source, state: m.state, detail: m.detail },
    })),
  );
  const incident = await tx.incident.findUniqueOrThrow({ where: { id: incidentId }, select: { severity: true } });
  const data: { lastSeenAt: Date; updatedAt: Date; severity?: Severity } = { lastSeenAt: now, updatedAt: now };
  const raised = escalation(incident.severity, joined);
  if (raised) {
    data.severity = raised.to;
    await appendEvents(tx, [{ incidentId, at: now, kind: "severity_changed", actor, summary: raised.summary, payload: raised.payload }]);
  }
  await tx.incident.update({ where: { id: incidentId }, data });
  return members.filter((_, i) => !added.has(memberKeys[i]));
}

export interface Holder {
  id: number;
  incidentId: number;
  open: boolean;
  source: string;
}

/** For each member key the member that holds it: the open one, else the latest (as the one-alert path chooses). */
export async function holdersOf(tx: Tx, members: { cluster: string; memberKey: string }[]): Promise<Map<string, Holder>> {
  if (members.length === 0) return new Map();
  // By (cluster, member key), the index's order: by member key alone PostgreSQL reads every member.
  const rows = await tx.$queryRaw<(Holder & { memberKey: string })[]>`
    SELECT DISTINCT ON (m."fingerprint") m."fingerprint" AS "memberKey", m."id", m."incident_id" AS "incidentId", m."open", m."source"
    FROM "incident_members" m JOIN unnest(${members.map((m) => m.cluster)}::text[], ${members.map((m) => m.memberKey)}::text[]) AS v(c, f)
      ON m."cluster" = v.c AND m."fingerprint" = v.f
    ORDER BY m."fingerprint", m."open" DESC, m."id" DESC`;
  return new Map(rows.map(({ memberKey, ...h }) => [memberKey, h]));
}

/** Marks open alert members ok (their alert resolved), each healthy since its alert's endsAt. */
export async function resolveMembers(tx: Tx, members: { id: number; healthySince: Date }[], now: Date): Promise<void> {
  if (members.length === 0) return;
  await tx.$executeRaw`
    UPDATE "incident_members" AS m SET "state" = 'ok', "changed_at" = ${now.toISOString()}::timestamptz, "healthy_since" = v.h
    FROM unnest(${members.map((m) => m.id)}::int[], ${members.map((m) => m.healthySince.toISOString())}::timestamptz[]) AS v(id, h)
    WHERE m."id" = v.id`;
}
