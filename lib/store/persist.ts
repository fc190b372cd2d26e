import { createHash } from "node:crypto";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import type { Signal } from "@/lib/signals/signal-model";
import { cleanText, cleanValue } from "@/lib/text/outside-text";
import { reasonOf, unitOf, type Refusal } from "@/lib/text/refusal";
import type { Sources } from "@/lib/sources/sources";
import type { SourceState } from "@/lib/sources/state";
import { FENCE_SQL, fenceArgs, isStaleTerm, type Fence } from "./fence";

// The store: keeps live health in Postgres: the current state of each signal (the one signal-state table, whose
// rule columns lib/store/judgements.ts reads and writes), an append-only history of its changes, and the last
// thing each source returned. Only changes are written, so a quiet cluster
// of 5,000 nodes costs nothing per poll. A signal or source the database refuses fails alone: it is
// logged, kept in the memo for the page, tried again next round, and the others are stored.

export interface PersistMemo {
  signals: Map<string, string>;
  snapshots: Map<string, { hash: string; at: number; up: boolean }>;
  /** The last hash computed per source, with what it was computed from: an unchanged value is not hashed again. */
  hashed: Map<string, { value: unknown; up: boolean; downSince?: string; lastError?: string; hash: string }>;
  /** Signals and sources the database refused in their latest attempt, by key; cleared once one is stored. */
  refused: Map<string, Refusal>;
}

export const newMemo = (): PersistMemo => ({ signals: new Map(), snapshots: new Map(), hashed: new Map(), refused: new Map() });

/** A source's value as JSON text, serialized once: a watch of 5,000 nodes holds megabytes, and each copy blocks the loop. */
const valueText = (source: SourceState): string | null => (source.value === undefined ? null : JSON.stringify(source.value));

/**
 * A source's content hash; the same value object in the same state (a watch that saw no change) reuses the last one.
 * When it had to serialize the value it hands the text on, so a due snapshot does not serialize it again.
 */
function hashOf(source: SourceState, memo: PersistMemo): { hash: string; text?: string | null } {
  const seen = memo.hashed.get(source.name);
  if (seen && seen.value === source.value && seen.up === source.up && seen.downSince === source.downSince && seen.lastError === source.lastError)
    return { hash: seen.hash };
  const text = valueText(source);
  const hash = createHash("sha1")
    .update(JSON.stringify({ up: source.up, downSince: source.downSince, lastError: source.lastError }))
    .update("\u0000")
    .update(text ?? "")
    .digest("hex");
  memo.hashed.set(source.name, { value: source.value, up: source.up, downSince: source.downSince, lastError: source.lastError, hash });
  return { hash, text };
}
/** A signal row's key; rows are written in this key's order (the judgements too), so two writers never deadlock. */
export const key = (signal: string, subject: string) => `${signal}\u0000${subject}`;
export const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const EVIDENCE_LIMIT = 16_384;
const SNAPSHOT_MIN_INTERVAL_MS = 10_000;

function evidenceJson(evidence: unknown): string | null {
  if (evidence === undefined) return null;
  const text = JSON.stringify(evidence);
  return text.length <= EVIDENCE_LIMIT ? text : JSON.stringify({ truncated: true, bytes: text.length });
}

type Row = { signal: Signal; detail: string; evidence: string | null };

/** One committed change of a signal's state (a row of signal_transitions). */
export interface SignalChange {
  signal: string;
  subject: string;
  previous: string | null;
  state: string;
}

/** What one commit wrote: the round's signals as committed, and the transitions it recorded. */
export interface CommittedRound {
  cluster: string;
  at: Date;
  signals: Signal[];
  transitions: SignalChange[];
  /** The lease term it was written under: the incident rules judge it under the same one. */
  fence?: Fence;
}

async function writeSignals(
  db: PrismaClient,
  cluster: string,
  rows: Row[],
  memo: PersistMemo,
  now: Date,
  committed: SignalChange[],
  fence: Fence | undefined,
): Promise<void> {
  const changes = rows.map(({ signal: s }) => ({ signal: s.id, subject: s.subject, previous: memo.signals.get(key(s.id, s.subject)) ?? null, state: s.state }));
  // Both statements take their rows as arrays (unnest): Prisma's createMany runs every row through its query
  // compiler, which blocked the event loop for up to 2 s per round when 15,000 signals were new (--cpu-prof).
  await db.$transaction([
    // A stale leader's round is refused whole, before it writes anything (lib/store/fence.ts).
    ...(fence ? [db.$queryRawUnsafe(FENCE_SQL, ...fenceArgs(fence))] : []),
    db.$executeRawUnsafe(
      `INSERT INTO "signal_transitions" ("cluster", "signal", "subject", "previous", "state", "at", "detail")
       SELECT $1, s.signal, s.subject, s.previous, s.state, $2::timestamptz, s.detail
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS s(signal, subject, previous, state, detail)`,
      cluster,
      now.toISOString(),
      changes.map((c) => c.signal),
      changes.map((c) => c.subject),
      changes.map((c) => c.previous),
      changes.map((c) => c.state),
      rows.map((r) => r.detail),
    ),
    db.$executeRawUnsafe(
      `INSERT INTO "signal_states" ("cluster", "signal", "subject", "state", "since", "detail", "evidence", "updated_at")
       SELECT $1, s.signal, s.subject, s.state, $2::timestamptz, s.detail, s.evidence::jsonb, $2::timestamptz
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS s(signal, subject, state, detail, evidence)
       ON CONFLICT ("cluster", "signal", "subject") DO UPDATE SET "state" = EXCLUDED."state", "since" = EXCLUDED."since",
         "detail" = EXCLUDED."detail", "evidence" = EXCLUDED."evidence", "updated_at" = EXCLUDED."updated_at"`,
      cluster,
      now.toISOString(),
      rows.map((r) => r.signal.id),
      rows.map((r) => r.signal.subject),
      rows.map((r) => r.signal.state),
      rows.map((r) => r.detail),
      rows.map((r) => r.evidence),
    ),
  ]);
  for (const { signal: s } of rows) {
    memo.signals.set(key(s.id, s.subject), s.state);
    memo.refused.delete(key(s.id, s.subject));
  }
  committed.push(...changes);
}

/** Records a unit the database refused; logs it once per reason. */
function refuse(memo: PersistMemo, cluster: string, unitKey: string, unit: string, error: unknown): void {
  const reason = reasonOf(error);
  if (memo.refused.get(unitKey)?.reason !== reason) console.error(`[faultline] monitor ${cluster}: could not store ${unit}: refused: ${reason}`);
  memo.refused.set(unitKey, { unit, reason });
}

/** Writes what changed since the last round; returns how many signal transitions were recorded. */
export async function persistRound(db: PrismaClient, health: ClusterHealth, sources: Sources, memo: PersistMemo, now: Date): Promise<number> {
  return (await commitRound(db, health, sources, memo, now)).transitions.length;
}

/**
 * Writes what changed since the last commit; returns what was committed, for the incident rules to judge. With a
 * fence, every write checks the lease first; a stale term throws (isStaleTerm) with nothing of the round written.
 */
export async function commitRound(
  db: PrismaClient,
  health: ClusterHealth,
  sources: Sources,
  memo: PersistMemo,
  now: Date,
  fence?: Fence,
): Promise<CommittedRound> {
  const committed: SignalChange[] = [];
  // A refused signal that is gone from the round (or a source no longer read) is no longer a problem to show.
  const present = new Set([...health.signals.map((s) => key(s.id, s.subject)), ...Object.keys(sources).map((name) => `source\u0000${name}`)]);
  for (const unitKey of memo.refused.keys()) if (!present.has(unitKey)) memo.refused.delete(unitKey);
  // In key order, so this write and the rules' (lib/store/judgements.ts) lock shared rows in the same order.
  const changed = health.signals
    .filter((s) => memo.signals.get(key(s.id, s.subject)) !== s.state)
    .sort((a, b) => compareKeys(key(a.id, a.subject), key(b.id, b.subject)));
  // Signals arrive clean from the monitor's intake; cleaning again here keeps any other caller from stopping the round.
  const rows: Row[] = changed.map((s) => ({ signal: s, detail: cleanText(s.detail, 2000), evidence: evidenceJson(cleanValue(s.evidence)) }));
  // Together in one transaction; a unit refused before is written alone, and a batch that fails is split in
  // halves until the refused units stand alone (a few dozen writes for one bad signal among 15,000).
  const write = async (part: Row[]): Promise<void> => {
    try {
      await writeSignals(db, health.name, part, memo, now, committed, fence);
    } catch (error) {
      if (isStaleTerm(error)) throw error;
      if (part.length === 1)
        return refuse(memo, health.name, key(part[0].signal.id, part[0].signal.subject), unitOf(part[0].signal.id, part[0].signal.subject), error);
      const half = Math.ceil(part.length / 2);
      await write(part.slice(0, half));
      await write(part.slice(half));
    }
  };
  const alone = rows.filter((r) => memo.refused.has(key(r.signal.id, r.signal.subject)));
  const batch = rows.filter((r) => !memo.refused.has(key(r.signal.id, r.signal.subject)));
  if (batch.length > 0) await write(batch);
  for (const row of alone) await write([row]);

  for (const source of Object.values(sources) as SourceState[]) {
    const { hash, text } = hashOf(source, memo);
    const last = memo.snapshots.get(source.name);
    const due = !last || last.up !== source.up || (last.hash !== hash && now.getTime() - last.at >= SNAPSHOT_MIN_INTERVAL_MS);
    if (!due) continue;
    try {
      // Raw SQL with the value as JSON text: Prisma's Json argument walks every node of the value (seconds of
      // blocked loop for a 5,000-node watch, measured with --cpu-prof); Postgres parses the text instead.
      // A value that is undefined (a source down before it ever answered) keeps the stored one.
      // Fenced in the statement itself: one round trip, no transaction of its own.
      await db.$executeRawUnsafe(
        `INSERT INTO "source_snapshots" ("cluster", "source", "up", "last_success", "down_since", "last_error", "value", "updated_at")
         SELECT $1, $2, $3, $4::timestamptz, $5::timestamptz, $6, $7::jsonb, $8::timestamptz
         ${fence ? `FROM (SELECT faultline_fence($9, $10, $11::bigint)) AS fence` : ""}
         ON CONFLICT ("cluster", "source") DO UPDATE SET "up" = EXCLUDED."up", "last_success" = EXCLUDED."last_success",
           "down_since" = EXCLUDED."down_since", "last_error" = EXCLUDED."last_error",
           "value" = COALESCE(EXCLUDED."value", "source_snapshots"."value"), "updated_at" = EXCLUDED."updated_at"`,
        health.name,
        source.name,
        source.up,
        source.lastSuccess ? new Date(source.lastSuccess).toISOString() : null,
        source.downSince ? new Date(source.downSince).toISOString() : null,
        source.lastError === undefined ? null : cleanText(source.lastError, 2000),
        text === undefined ? valueText(source) : text,
        now.toISOString(),
        ...(fence ? fenceArgs(fence) : []),
      );
      memo.snapshots.set(source.name, { hash, at: now.getTime(), up: source.up });
      memo.refused.delete(`source\u0000${source.name}`);
    } catch (error) {
      if (isStaleTerm(error)) throw error;
      refuse(memo, health.name, `source\u0000${source.name}`, `source ${source.name}`, error);
    }
  }
  return { cluster: health.name, at: now, signals: health.signals, transitions: committed, fence };
}

/** What a restarted server knew: each source's last-known value, and each signal's state. */
export async function loadPersisted(db: PrismaClient, cluster: string): Promise<{ sources: Sources; memo: PersistMemo }> {
  const memo = newMemo();
  const sources: Record<string, SourceState> = {};
  for (const row of await db.sourceSnapshot.findMany({ where: { cluster } })) {
    sources[row.source] = {
      name: row.source,
      up: row.up,
      lastSuccess: row.lastSuccess?.toISOString(),
      downSince: row.downSince?.toISOString(),
      lastError: row.lastError ?? undefined,
      value: row.value ?? undefined,
    };
  }
  for (const row of await db.signalState.findMany({ where: { cluster }, select: { signal: true, subject: true, state: true } })) {
    memo.signals.set(key(row.signal, row.subject), row.state);
  }
  return { sources: sources as Sources, memo };
}
