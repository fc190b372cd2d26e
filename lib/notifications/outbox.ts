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
 * An alert's incident is ranked in the transaction after the one that opens it (lib/incidents/ingest-alerts.ts), and
 * the body is fixed at the first attempt: an opening or reopening waits a second so that its suspects are in it.
 */
export function firstAttemptDelaySeconds(kind: NotificationKind): number {
  return kind === "opened" || kind === "reopened" ? 1 : 0;
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
