import type { PrismaClient, Prisma } from "@/lib/db/generated/client";

// Transactions for incident writes. Two writers that race for one member key meet at the partial unique
// indexes; the loser's transaction is retried, and on the retry it finds the winner's incident and joins it.

export type Tx = Prisma.TransactionClient;
export type Db = PrismaClient;

const RETRIES = 5;
const EVIDENCE_LIMIT = 16_384;

/** Thrown when a racing writer changed what this transaction read; the transaction is run again. */
export class RaceLost extends Error {}

function isConflict(error: unknown): boolean {
  if (error instanceof RaceLost) return true;
  const e = error as { code?: string; message?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } };
  const text = `${e.code ?? ""} ${e.meta?.code ?? ""} ${e.meta?.driverAdapterError?.cause?.originalCode ?? ""} ${e.meta?.driverAdapterError?.cause?.kind ?? ""} ${e.message ?? ""}`;
  return /P2002|P2034|23505|40001|40P01|UniqueConstraintViolation|TransactionWriteConflict|unique constraint|could not serialize|deadlock/i.test(text);
}

/** Runs `work` in one transaction, again (up to 5 times) when it lost a race on a unique index. */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(work, { maxWait: 10_000, timeout: 30_000 });
    } catch (error) {
      if (attempt >= RETRIES || !isConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}

/** JSON for a payload column: evidence larger than 16 KiB is replaced by its size. */
export function payloadJson(payload: Record<string, unknown>): string {
  const text = JSON.stringify(payload);
  if (text.length <= EVIDENCE_LIMIT) return text;
  const { evidence, ...rest } = payload;
  const slim = JSON.stringify({ ...rest, evidence: evidence === undefined ? undefined : { truncated: true, bytes: JSON.stringify(evidence).length } });
  return slim.length <= EVIDENCE_LIMIT ? slim : JSON.stringify({ truncated: true, bytes: text.length });
}

export interface EventInput {
  incidentId: number;
  at: Date;
  kind: EventKind;
  actor: string;
  summary: string;
  payload?: Record<string, unknown>;
  /** The same key twice makes one event (a redelivered alert, a retried request). */
  key?: string;
}

export const EVENT_KINDS = [
  "status_change",
  "signal_transition",
  "member_joined",
  "severity_changed",
  "note",
  "runbook_started",
  "runbook_step",
  "runbook_finished",
  // Written by lib/incidents/sessions/question.ts: a separating question answered where the incident page asked it.
  "question_answered",
  "suspects_changed",
  "title_changed",
  "alert_received",
  "alert_resolved",
  "alerts_truncated",
  "alerts_refused",
  // Written by lib/incidents/evidence: pasted output, a log tail or a journal added to the incident.
  "evidence_added",
  // Written by lib/incidents/evidence/log-evidence.ts: a log source that could not be read, and why.
  "logs_unread",
  // Written by lib/notifications: one per delivery attempt of a notification.
  "notification_sent",
  "notification_retrying",
  "notification_failed",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Appends to the timeline; false when an event with the same key exists already. */
export async function appendEvent(tx: Tx, event: EventInput): Promise<boolean> {
  return (await appendEventId(tx, event)) !== undefined;
}

/** Appends to the timeline; the new event's id, or undefined when an event with the same key exists already. */
export async function appendEventId(tx: Tx, event: EventInput): Promise<bigint | undefined> {
  const rows = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO "incident_events" ("incident_id", "at", "kind", "actor", "summary", "payload", "idempotency_key")
    VALUES (${event.incidentId}, ${event.at}, ${event.kind}, ${event.actor.slice(0, 200)}, ${event.summary.slice(0, 2000)}, ${payloadJson(event.payload ?? {})}::jsonb, ${event.key ?? null})
    ON CONFLICT ("idempotency_key") DO NOTHING RETURNING "id"`;
  return rows[0]?.id;
}

export async function eventExists(tx: Tx, key: string): Promise<boolean> {
  return (await tx.incidentEvent.count({ where: { idempotencyKey: key } })) > 0;
}
