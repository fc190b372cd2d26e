import type { PrismaClient } from "@/lib/db/generated/client";
import type { Decision } from "./retry";
import { KIND_TEXT } from "./payload";
import type { NotificationKind } from "@/lib/notify-config";

// An attempt's outcome: the outbox row and a timeline event on the incident, in one transaction, so the timeline
// says exactly what the outbox holds. The row is updated only while the claim is still this worker's.

export interface Claimed {
  id: bigint;
  incidentId: number;
  kind: NotificationKind;
  receiver: string;
  idempotencyKey: string;
  attempts: number;
}

const EVENT_KIND = { sent: "notification_sent", pending: "notification_retrying", failed: "notification_failed" } as const;

function summaryOf(row: Claimed, decision: Decision, httpStatus?: number): string {
  const what = `notification "${KIND_TEXT[row.kind]}" to ${row.receiver}`;
  if (decision.status === "sent") return `${what}: sent${httpStatus ? ` (HTTP ${httpStatus})` : ""}${row.attempts > 1 ? ` on attempt ${row.attempts}` : ""}`;
  if (decision.status === "failed") return `${what}: failed: ${decision.reason}`;
  return `${what}: attempt ${row.attempts} failed (${decision.reason}); retrying in ${Math.max(1, Math.round(decision.delaySeconds))} s`;
}

/** Stores the decision; false when the claim lapsed and another attempt owns the row now (nothing written). */
export async function recordAttempt(db: PrismaClient, row: Claimed, decision: Decision, httpStatus?: number): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const updated =
      decision.status === "sent"
        ? await tx.$executeRaw`
            UPDATE "notification_outbox" SET "status" = 'sent', "sent_at" = now(), "last_error" = NULL
            WHERE "id" = ${row.id} AND "attempts" = ${row.attempts} AND "status" = 'pending'`
        : decision.status === "failed"
          ? await tx.$executeRaw`
            UPDATE "notification_outbox" SET "status" = 'failed', "last_error" = ${decision.reason.slice(0, 2000)}
            WHERE "id" = ${row.id} AND "attempts" = ${row.attempts} AND "status" = 'pending'`
          : await tx.$executeRaw`
            UPDATE "notification_outbox" SET "last_error" = ${decision.reason.slice(0, 2000)},
              "next_attempt_at" = now() + make_interval(secs => ${decision.delaySeconds})
            WHERE "id" = ${row.id} AND "attempts" = ${row.attempts} AND "status" = 'pending'`;
    if (updated === 0) return false;
    const payload = {
      receiver: row.receiver,
      notification: row.kind,
      idempotencyKey: row.idempotencyKey,
      attempt: row.attempts,
      outcome: decision.status === "pending" ? "retrying" : decision.status,
      httpStatus: httpStatus ?? null,
      reason: decision.status === "sent" ? null : decision.reason,
      retryInSeconds: decision.status === "pending" ? Math.round(decision.delaySeconds * 10) / 10 : null,
    };
    await tx.$executeRaw`
      INSERT INTO "incident_events" ("incident_id", "at", "kind", "actor", "summary", "payload", "idempotency_key")
      VALUES (${row.incidentId}, now(), ${EVENT_KIND[decision.status]}, 'faultline', ${summaryOf(row, decision, httpStatus).slice(0, 2000)},
              ${JSON.stringify(payload)}::jsonb, ${`notification:${row.id}:${row.attempts}`})
      ON CONFLICT ("idempotency_key") DO NOTHING`;
    return true;
  });
}
