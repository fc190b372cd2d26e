import type { PrismaClient } from "@/lib/db/generated/client";
import type { NotificationKind, NotifyReceiver, NotifyRetry } from "@/lib/notify-config";
import { deliver } from "./deliver";
import type { NotificationSnapshot } from "./payload";
import { recordAttempt, type Claimed } from "./record";
import { renderSnapshot } from "./render";
import { decide, type AttemptResult } from "./retry";

// The delivery worker: claims due outbox rows, POSTs each, records the outcome. A claim moves the row's
// next_attempt_at past the attempt's timeout (a lease) in one statement with FOR UPDATE SKIP LOCKED, so any number
// of server processes can run it without two sending one row at once; a process killed mid-attempt leaves a row
// that becomes due again when the lease lapses, and is sent again under the same idempotency key.

export interface WorkerOptions {
  receivers: NotifyReceiver[];
  retry: NotifyRetry;
  /** The public address links point at. */
  base: string;
  batch?: number;
  pollMs?: number;
  userAgent?: string;
  /** Told which incidents' timelines changed (open pages refetch). */
  onChange?: (incidentIds: number[]) => void;
  log?: (line: string) => void;
}

/** Past the attempt's timeout: time to render the body and record the outcome. */
const LEASE_MARGIN_SECONDS = 5;

interface ClaimedRow extends Claimed {
  eventId: bigint;
  payload: NotificationSnapshot | null;
  ageSeconds: number;
}

/**
 * Leases the due rows for this pass; each counts as an attempt from here on, even if the process dies. Only the
 * oldest pending row of an incident and receiver is claimable, so a receiver hears of an incident's changes in order
 * (never "resolved" before "opened"); one that fails for good stops holding the others back.
 */
async function claim(db: PrismaClient, batch: number, leaseSeconds: number): Promise<ClaimedRow[]> {
  const rows = await db.$queryRaw<
    {
      id: bigint;
      incident_id: number;
      event_id: bigint;
      kind: string;
      receiver: string;
      idempotency_key: string;
      attempts: number;
      payload: unknown;
      age: number;
    }[]
  >`
    UPDATE "notification_outbox" o SET "attempts" = o."attempts" + 1, "next_attempt_at" = now() + make_interval(secs => ${leaseSeconds})
    WHERE o."id" IN (
      SELECT h."id" FROM "notification_outbox" h
      WHERE h."status" = 'pending' AND h."next_attempt_at" <= now()
        AND NOT EXISTS (SELECT 1 FROM "notification_outbox" e
                        WHERE e."incident_id" = h."incident_id" AND e."receiver" = h."receiver" AND e."status" = 'pending' AND e."id" < h."id")
      ORDER BY h."next_attempt_at", h."id" LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING o."id", o."incident_id", o."event_id", o."kind", o."receiver", o."idempotency_key", o."attempts", o."payload",
              extract(epoch FROM now() - o."created_at")::float8 AS "age"`;
  return rows.map((r) => ({
    id: r.id,
    incidentId: r.incident_id,
    eventId: r.event_id,
    kind: r.kind as NotificationKind,
    receiver: r.receiver,
    idempotencyKey: r.idempotency_key,
    attempts: r.attempts,
    payload: (r.payload as NotificationSnapshot | null) ?? null,
    ageSeconds: Number(r.age),
  }));
}

/** The body is fixed at the first attempt and kept, so a re-delivery under the same key sends the same thing. */
async function snapshotOf(db: PrismaClient, row: ClaimedRow, base: string): Promise<NotificationSnapshot> {
  if (row.payload) return row.payload;
  const fresh = await renderSnapshot(db, row, base);
  const kept = await db.$queryRaw<{ payload: NotificationSnapshot }[]>`
    UPDATE "notification_outbox" SET "payload" = COALESCE("payload", ${JSON.stringify(fresh)}::jsonb) WHERE "id" = ${row.id} RETURNING "payload"`;
  return kept[0]?.payload ?? fresh;
}

async function attempt(db: PrismaClient, row: ClaimedRow, opts: WorkerOptions): Promise<void> {
  const receiver = opts.receivers.find((r) => r.name === row.receiver);
  let result: AttemptResult;
  if (!receiver) result = { ok: false, permanent: true, reason: `receiver ${row.receiver} is no longer configured (FAULTLINE_NOTIFY_WEBHOOKS)` };
  else result = await deliver(receiver, await snapshotOf(db, row, opts.base), opts.userAgent);
  const decision = decide(result, row.attempts, row.ageSeconds, opts.retry);
  const recorded = await recordAttempt(db, row, decision, "status" in result ? result.status : undefined);
  if (recorded && decision.status === "failed") opts.log?.(`notification ${row.idempotencyKey} to ${row.receiver} failed: ${decision.reason}`);
}

/** One pass: claims what is due and attempts it all; returns how many rows it attempted. */
export async function deliverDue(db: PrismaClient, opts: WorkerOptions): Promise<number> {
  const leaseSeconds = Math.max(1, ...opts.receivers.map((r) => r.timeoutSeconds)) + LEASE_MARGIN_SECONDS;
  const rows = await claim(db, opts.batch ?? 16, leaseSeconds);
  if (rows.length === 0) return 0;
  const outcomes = await Promise.allSettled(rows.map((row) => attempt(db, row, opts)));
  for (const o of outcomes) if (o.status === "rejected") opts.log?.(`notification attempt could not be recorded: ${(o.reason as Error)?.message ?? o.reason}`);
  opts.onChange?.([...new Set(rows.map((r) => r.incidentId))]);
  return rows.length;
}

export interface RunningWorker {
  stop: () => Promise<void>;
}

/** Runs passes until stopped: at once again after a pass that attempted something, else every pollMs; a database error waits 5 s. */
export function startWorker(db: PrismaClient, opts: WorkerOptions): RunningWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let lastError = "";
  const pass = async () => {
    let delay = opts.pollMs ?? 500;
    try {
      // Something was attempted: the next change of the same incident may be claimable now.
      if ((await deliverDue(db, opts)) > 0) delay = 0;
      lastError = "";
    } catch (error) {
      const message = (error as Error).message?.split("\n").pop() ?? String(error);
      if (message !== lastError) opts.log?.(`notification worker: ${message}`);
      lastError = message;
      delay = 5_000;
    }
    if (!stopped) timer = setTimeout(() => void (current = pass()), delay);
  };
  current = pass();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
