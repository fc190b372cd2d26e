import type { Prisma } from "@/lib/db/generated/client";
import { loadEnv } from "@/lib/env";
import type { NotificationKind, NotifyReceiver } from "@/lib/notify-config";

// The outbox's write side: called inside the transaction that changes the incident, so the notification rows
// commit with the change or not at all. The worker (worker.ts) delivers them later, at least once. Times are the
// database's clock, as the worker's are.

type Tx = Prisma.TransactionClient;

export interface Change {
  incidentId: number;
  /** The timeline event that records the change: part of the idempotency key, so each change has its own. */
  eventId: bigint;
  kind: NotificationKind;
}

/** Stable across re-deliveries and restarts: one key per change per receiver. */
export function idempotencyKey(incidentId: number, eventId: bigint, receiver: string): string {
  return `faultline-${incidentId}-${eventId}-${receiver}`;
}

/**
 * The body is fixed at the first attempt, and an opening's suspects are ranked after it: in the same transaction by
 * the rules, in the next one for an alert (lib/incidents/ingest-alerts.ts). So an opening or reopening waits until
 * refreshSuspects releases it (releaseOpenings), or this long if nothing does (a crash between the two).
 */
export const OPENING_WAIT_SECONDS = 10;

export function firstAttemptDelaySeconds(kind: NotificationKind): number {
  return kind === "opened" || kind === "reopened" ? OPENING_WAIT_SECONDS : 0;
}

/** Called where an incident's suspects are ranked: its waiting openings become due when that commits. */
export async function releaseOpenings(tx: Tx, incidentId: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE "notification_outbox" SET "next_attempt_at" = now()
    WHERE "incident_id" = ${incidentId} AND "status" = 'pending' AND "attempts" = 0 AND "kind" IN ('opened', 'reopened')`;
}

/** Writes one outbox row per configured receiver that wants this kind; returns how many. */
export async function enqueueNotification(tx: Tx, change: Change, receivers: NotifyReceiver[] = loadEnv().FAULTLINE_NOTIFY_WEBHOOKS): Promise<number> {
  let written = 0;
  for (const r of receivers) {
    if (r.events && !r.events.includes(change.kind)) continue;
    written += await tx.$executeRaw`
      INSERT INTO "notification_outbox" ("incident_id", "event_id", "kind", "receiver", "idempotency_key", "created_at", "next_attempt_at")
      VALUES (${change.incidentId}, ${change.eventId}, ${change.kind}, ${r.name}, ${idempotencyKey(change.incidentId, change.eventId, r.name)}, now(),
              now() + make_interval(secs => ${firstAttemptDelaySeconds(change.kind)}))
      ON CONFLICT ("idempotency_key") DO NOTHING`;
  }
  return written;
}

/**
 * "Suspect changed" is a change of the top suspect's failure mode. The first ranking made in the moment the incident
 * opened or reopened is not one: the opened or reopened notification carries it.
 */
export function isSuspectChange(
  before: string | undefined,
  after: string | undefined,
  incident: { openedAt: Date; reopenedAt: Date | null },
  now: Date,
): boolean {
  if (!after || before === after) return false;
  const atChange = incident.openedAt.getTime() === now.getTime() || incident.reopenedAt?.getTime() === now.getTime();
  return before !== undefined || !atChange;
}
