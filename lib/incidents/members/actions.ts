import { Conflict, NotFound } from "@/lib/errors";
import { announced } from "./announce";
import { closeIncident } from "./membership";
import { enqueueNotification } from "@/lib/notifications/outbox";
import { appendEvent, appendEventId, inTransaction, type Db, type Tx } from "../tx";

// What people do to an incident. Each checks the transition under a row lock, so two on-calls clicking at
// once get one success and one clear refusal.

/** The incident's row, locked for the rest of the transaction; NotFound when there is none. */
export async function lockIncident(tx: Tx, id: number) {
  const rows = await tx.$queryRaw<
    { id: number; status: string; acknowledged_by: string | null; acknowledged_at: Date | null; resolved_by: string | null; resolved_at: Date | null }[]
  >`
    SELECT "id", "status", "acknowledged_by", "acknowledged_at", "resolved_by", "resolved_at" FROM "incidents" WHERE "id" = ${id} FOR UPDATE`;
  if (rows.length === 0) throw new NotFound(`no incident ${id}`);
  return rows[0];
}

export async function acknowledgeIncident(db: Db, id: number, input: { actor: string; note?: string }, now: Date = new Date()) {
  return announced(
    id,
    inTransaction(db, async (tx) => {
      const incident = await lockIncident(tx, id);
      if (incident.status === "acknowledged")
        throw new Conflict(`incident ${id} was already acknowledged by ${incident.acknowledged_by} at ${incident.acknowledged_at?.toISOString()}`);
      if (incident.status === "resolved")
        throw new Conflict(`incident ${id} is resolved; it cannot be acknowledged (it reopens by itself if the problem recurs)`);
      await tx.incident.update({ where: { id }, data: { status: "acknowledged", acknowledgedAt: now, acknowledgedBy: input.actor, updatedAt: now } });
      const eventId = await appendEventId(tx, {
        incidentId: id,
        at: now,
        kind: "status_change",
        actor: input.actor,
        summary: `acknowledged${input.note ? `: ${input.note}` : ""}`,
        payload: { from: "open", to: "acknowledged", note: input.note ?? null },
      });
      if (eventId !== undefined) await enqueueNotification(tx, { incidentId: id, eventId, kind: "acknowledged" });
      return tx.incident.findUniqueOrThrow({ where: { id } });
    }),
  );
}

export async function resolveIncident(db: Db, id: number, input: { actor: string; resolution?: string }, now: Date = new Date()) {
  return announced(
    id,
    inTransaction(db, async (tx) => {
      const incident = await lockIncident(tx, id);
      if (incident.status === "resolved")
        throw new Conflict(`incident ${id} was already resolved by ${incident.resolved_by} at ${incident.resolved_at?.toISOString()}`);
      await closeIncident(tx, id, now, input.actor, input.resolution, incident.status);
      return tx.incident.findUniqueOrThrow({ where: { id } });
    }),
  );
}

/** A note on the timeline. With an idempotency key, a retried request adds it once. */
export async function addNote(db: Db, id: number, input: { actor: string; text: string; idempotencyKey?: string }, now: Date = new Date()) {
  return announced(
    id,
    inTransaction(db, async (tx) => {
      await lockIncident(tx, id);
      const key = input.idempotencyKey ? `note:${id}:${input.idempotencyKey}` : undefined;
      const added = await appendEvent(tx, {
        incidentId: id,
        at: now,
        kind: "note",
        actor: input.actor,
        summary: input.text.split("\n")[0].slice(0, 200),
        payload: { text: input.text },
        key,
      });
      const event = key
        ? await tx.incidentEvent.findUniqueOrThrow({ where: { idempotencyKey: key } })
        : await tx.incidentEvent.findFirstOrThrow({ where: { incidentId: id, kind: "note" }, orderBy: { id: "desc" } });
      return { added, event };
    }),
  );
}
