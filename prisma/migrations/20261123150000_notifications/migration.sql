-- Notifications (docs/notifications.md): a durable outbox, one row per configured receiver per incident change,
-- written in the same transaction as the change and delivered at least once by the worker (lib/notifications/).
CREATE TABLE "notification_outbox" (
    "id" BIGSERIAL NOT NULL,
    "incident_id" INTEGER NOT NULL,
    "event_id" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "receiver" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "payload" JSONB,
    "last_error" TEXT,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "notification_outbox_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "notification_outbox_status_check" CHECK ("status" IN ('pending', 'sent', 'failed')),
    CONSTRAINT "notification_outbox_kind_check" CHECK ("kind" IN ('opened', 'acknowledged', 'resolved', 'reopened', 'suspect_changed'))
);

CREATE UNIQUE INDEX "notification_outbox_idempotency_key_key" ON "notification_outbox"("idempotency_key");
-- The worker claims only the oldest pending row of an incident and receiver (changes arrive in order).
CREATE INDEX "notification_outbox_incident_id_receiver_id_idx" ON "notification_outbox"("incident_id", "receiver", "id");
-- What the worker asks for every pass: the pending rows that are due, soonest first.
CREATE INDEX "notification_outbox_due_idx" ON "notification_outbox"("next_attempt_at") WHERE "status" = 'pending';

ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "incident_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
