import { createHash } from "node:crypto";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { ClusterHealth } from "@/lib/health/cluster-health";
import type { Sources } from "./collect";
import type { SourceState } from "./sources";

// Keeps live health in Postgres: the current state of each signal, an append-only history of its
// changes, and the last thing each source returned. Only changes are written, so a quiet cluster
// of 5,000 nodes costs nothing per poll.

export interface PersistMemo {
  signals: Map<string, string>;
  snapshots: Map<string, { hash: string; at: number; up: boolean }>;
  /** The last hash computed per source, with what it was computed from: an unchanged value is not hashed again. */
  hashed: Map<string, { value: unknown; up: boolean; downSince?: string; lastError?: string; hash: string }>;
}

export const newMemo = (): PersistMemo => ({ signals: new Map(), snapshots: new Map(), hashed: new Map() });

/** A source's content hash; the same value object in the same state (a watch that saw no change) reuses the last one. */
function hashOf(source: SourceState, memo: PersistMemo): string {
  const seen = memo.hashed.get(source.name);
  if (seen && seen.value === source.value && seen.up === source.up && seen.downSince === source.downSince && seen.lastError === source.lastError) return seen.hash;
  const hash = createHash("sha1").update(JSON.stringify({ up: source.up, downSince: source.downSince, lastError: source.lastError, value: source.value })).digest("hex");
  memo.hashed.set(source.name, { value: source.value, up: source.up, downSince: source.downSince, lastError: source.lastError, hash });
  return hash;
}
const key = (signal: string, subject: string) => `${signal}\u0000${subject}`;
const EVIDENCE_LIMIT = 16_384;
const SNAPSHOT_MIN_INTERVAL_MS = 10_000;

function evidenceJson(evidence: unknown): string | null {
  if (evidence === undefined) return null;
  const text = JSON.stringify(evidence);
  return text.length <= EVIDENCE_LIMIT ? text : JSON.stringify({ truncated: true, bytes: text.length });
}

/** Writes what changed since the last round; returns how many signal transitions were recorded. */
export async function persistRound(db: PrismaClient, health: ClusterHealth, sources: Sources, memo: PersistMemo, now: Date): Promise<number> {
  const changed = health.signals.filter((s) => memo.signals.get(key(s.id, s.subject)) !== s.state);
  if (changed.length > 0) {
    await db.$transaction([
      db.signalTransition.createMany({
        data: changed.map((s) => ({ cluster: health.name, signal: s.id, subject: s.subject, previous: memo.signals.get(key(s.id, s.subject)) ?? null, state: s.state, at: now, detail: s.detail.slice(0, 2000) })),
      }),
      db.$executeRawUnsafe(
        `INSERT INTO "signal_states" ("cluster", "signal", "subject", "state", "since", "detail", "evidence", "updated_at")
         SELECT $1, s.signal, s.subject, s.state, $2::timestamptz, s.detail, s.evidence::jsonb, $2::timestamptz
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS s(signal, subject, state, detail, evidence)
         ON CONFLICT ("cluster", "signal", "subject") DO UPDATE SET "state" = EXCLUDED."state", "since" = EXCLUDED."since",
           "detail" = EXCLUDED."detail", "evidence" = EXCLUDED."evidence", "updated_at" = EXCLUDED."updated_at"`,
        health.name,
        now.toISOString(),
        changed.map((s) => s.id),
        changed.map((s) => s.subject),
        changed.map((s) => s.state),
        changed.map((s) => s.detail.slice(0, 2000)),
        changed.map((s) => evidenceJson(s.evidence)),
      ),
    ]);
    for (const s of changed) memo.signals.set(key(s.id, s.subject), s.state);
  }

  for (const source of Object.values(sources) as SourceState[]) {
    const hash = hashOf(source, memo);
    const last = memo.snapshots.get(source.name);
    const due = !last || last.up !== source.up || (last.hash !== hash && now.getTime() - last.at >= SNAPSHOT_MIN_INTERVAL_MS);
    if (!due) continue;
    const data = {
      up: source.up,
      lastSuccess: source.lastSuccess ? new Date(source.lastSuccess) : null,
      downSince: source.downSince ? new Date(source.downSince) : null,
      lastError: source.lastError ?? null,
      value: source.value === undefined ? undefined : (JSON.parse(JSON.stringify(source.value)) as object),
      updatedAt: now,
    };
    await db.sourceSnapshot.upsert({ where: { cluster_source: { cluster: health.name, source: source.name } }, create: { cluster: health.name, source: source.name, ...data }, update: data });
    memo.snapshots.set(source.name, { hash, at: now.getTime(), up: source.up });
  }
  return changed.length;
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
