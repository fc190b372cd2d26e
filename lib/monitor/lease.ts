import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { processSlot } from "@/lib/process-slot";
import type { Fence } from "@/lib/store/fence";

// Exactly one server process monitors each cluster: the one holding the cluster's lease in PostgreSQL
// (table monitor_leases, docs/replicas.md). The leader renews it every RENEW_MS; a follower takes it over, with
// the next term, once it has expired by the database's clock. A session lock alone was not enough: a leader
// frozen by SIGSTOP, or cut off from PostgreSQL by a half-open connection, kept its lock and hid an outage.
// The leader stops acting the moment it cannot prove it still holds the lease (fence() is undefined), and its
// writes carry the term (lib/store/fence.ts), so a leader that wakes up after a takeover writes nothing.

/** How often the leader renews its lease, and a follower checks whether it may take it. */
export const RENEW_MS = 1_000;
/** How long a lease lasts without renewal: a frozen leader is replaced this long after its last renewal. */
export const LEASE_MS = 5_000;
/** A leader silent this long is shown as such on followers' pages (before its lease expires). */
export const SILENT_AFTER_MS = 2_500;
/** The leader stops acting this long before its lease could have expired, by its own monotonic clock. */
const SAFETY_MS = 750;

export interface LeaseView {
  /** This process leads the cluster now. */
  leading: boolean;
  /** The live term and its holder (as far as the database said at the last check). */
  term?: number;
  holder?: string;
  /** When the holder last renewed, by the database's clock (a follower's "leader silent since"). */
  renewedAt?: Date;
  /** How long ago that was, by the database's clock. */
  silentForMs?: number;
}

export interface ClusterLease {
  readonly cluster: string;
  readonly holder: string;
  /** The fence of the term this process holds, while it can prove it holds it; undefined otherwise. */
  fence(): Fence | undefined;
  /** Renews the lease, or takes it when it has expired; says who leads. Throws when the database cannot be asked. */
  check(): Promise<LeaseView>;
  /** Stops leading at once: a write under this term was refused (another process took over). */
  lost(): void;
  /** Hands the lease back (shutdown): a follower takes over at its next check, not after the lease runs out. */
  release(): Promise<void>;
}

/** This process's holder id: host, pid and a random part, so a restarted process never reuses a term's holder. */
export const HOLDER = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

// One small pool per process for leases: a renewal never queues behind the rounds' queries in Prisma's pool.
const pools = processSlot<Map<string, pg.Pool>>("lease-pools");
function poolFor(connectionString: string): pg.Pool {
  const map = pools.getOrCreate(() => new Map());
  let pool = map.get(connectionString);
  if (!pool) {
    // Timeouts shorter than a lease: a half-open connection fails the renewal instead of hanging it.
    // A takeover that waits on a fenced write holds its transaction: bounded by the statement and idle timeouts.
    pool = new pg.Pool({
      connectionString,
      max: 3,
      connectionTimeoutMillis: 2_000,
      query_timeout: 3_000,
      statement_timeout: 3_000,
      idle_in_transaction_session_timeout: 5_000,
    });
    pool.on("error", () => undefined); // an idle client's error: the next query reconnects
    map.set(connectionString, pool);
  }
  return pool;
}

// One session per process that lives exactly as long as the process (or its connection): its backend pid in the
// lease row lets a follower see at once that a leader died. None (it cannot connect): the lease's expiry alone.
const presences = processSlot<Map<string, { client?: pg.Client; pid?: number; connecting?: Promise<number | undefined> }>>("lease-presence");
function presencePid(connectionString: string): Promise<number | undefined> {
  const map = presences.getOrCreate(() => new Map());
  let p = map.get(connectionString);
  if (!p) map.set(connectionString, (p = {}));
  const held = p;
  if (held.pid !== undefined) return Promise.resolve(held.pid);
  held.connecting ??= (async () => {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000, keepAlive: true });
    const gone = () => {
      if (held.client === client) Object.assign(held, { client: undefined, pid: undefined });
    };
    client.on("error", gone);
    client.on("end", gone);
    try {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      held.client = client;
      held.pid = rows[0].pid;
      return held.pid;
    } catch {
      await client.end().catch(() => undefined);
      return undefined;
    } finally {
      held.connecting = undefined;
    }
  })();
  return held.connecting;
}

// The holder renews with an UPDATE that changes no key: it takes a lock (FOR NO KEY UPDATE) that the fence of its
// own writes in flight (FOR KEY SHARE) does not conflict with, so a slow write never makes the leader miss a renewal.
const RENEW_SQL = `
UPDATE "monitor_leases" SET "renewed_at" = clock_timestamp(),
  "expires_at" = clock_timestamp() + make_interval(secs => $3::double precision), "presence_pid" = $5::int
WHERE "cluster" = $1 AND "holder" = $2 AND "term" = $4::bigint
RETURNING "term"::text AS term, "renewed_at" AS renewed_at`;

// Anyone else takes the row FOR UPDATE first: that waits for every fenced write in flight to commit, so the new
// term starts after them. Then it takes over (next term) when the lease has expired by the database's clock, or
// when the holder's presence session is gone (its process died; a frozen process keeps its session, so only the
// expiry replaces it).
const LOCK_SQL = `SELECT "holder", "term"::text AS term, "expires_at" <= clock_timestamp() AS expired,
  ("presence_pid" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a."pid" = "presence_pid")) AS gone
FROM "monitor_leases" WHERE "cluster" = $1 FOR UPDATE`;
const TAKE_OVER_SQL = `
UPDATE "monitor_leases" SET "term" = "term" + 1, "holder" = $2, "acquired_at" = clock_timestamp(), "renewed_at" = clock_timestamp(),
  "expires_at" = clock_timestamp() + make_interval(secs => $3::double precision), "presence_pid" = $4::int
WHERE "cluster" = $1
RETURNING "term"::text AS term, "renewed_at" AS renewed_at`;
const FIRST_SQL = `
INSERT INTO "monitor_leases" ("cluster", "holder", "term", "acquired_at", "renewed_at", "expires_at", "presence_pid")
VALUES ($1, $2, 1, clock_timestamp(), clock_timestamp(), clock_timestamp() + make_interval(secs => $3::double precision), $4::int)
ON CONFLICT ("cluster") DO NOTHING
RETURNING "term"::text AS term, "renewed_at" AS renewed_at`;

type Taken = { term: string; renewed_at: Date };

/** Takes the lease when it is free (none yet, expired, or its holder gone); undefined when another holds it. */
async function takeOver(pool: pg.Pool, cluster: string, holder: string, leaseSeconds: number, pid: number | null): Promise<Taken | undefined> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ holder: string; term: string; expired: boolean; gone: boolean }>(LOCK_SQL, [cluster]);
    let taken: Taken | undefined;
    if (rows.length === 0) taken = (await client.query<Taken>(FIRST_SQL, [cluster, holder, leaseSeconds, pid])).rows[0];
    else if (rows[0].expired || rows[0].gone) taken = (await client.query<Taken>(TAKE_OVER_SQL, [cluster, holder, leaseSeconds, pid])).rows[0];
    await client.query("COMMIT");
    return taken;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const WHO_SQL = `SELECT "holder", "term"::text AS term, "renewed_at", EXTRACT(EPOCH FROM clock_timestamp() - "renewed_at") * 1000 AS silent_ms
FROM "monitor_leases" WHERE "cluster" = $1`;

export function createClusterLease(
  connectionString: string,
  cluster: string,
  opts: { holder?: string; leaseMs?: number; onLost?: (reason: string) => void } = {},
): ClusterLease {
  const holder = opts.holder ?? HOLDER;
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  let term: number | undefined;
  /** The term this process held last: renewed again if nobody took it meanwhile (a slow moment is not a takeover). */
  let lastTerm: number | undefined;
  /** Until when (performance.now()) the held term is provably live: its renewal started before then minus the lease. */
  let validUntil = 0;
  const pool = poolFor(connectionString);
  const drop = (reason: string) => {
    if (term !== undefined) opts.onLost?.(reason);
    term = undefined;
    validUntil = 0;
  };
  return {
    cluster,
    holder,
    fence() {
      if (term === undefined) return undefined;
      if (performance.now() >= validUntil) {
        drop("the lease could not be renewed in time");
        return undefined;
      }
      return { cluster, holder, term };
    },
    async check() {
      const started = performance.now();
      let taken: Taken | undefined;
      try {
        const pid = (await presencePid(connectionString)) ?? null;
        const mine = term ?? lastTerm;
        if (mine !== undefined) taken = (await pool.query<Taken>(RENEW_SQL, [cluster, holder, leaseMs / 1000, mine, pid])).rows[0];
        taken ??= await takeOver(pool, cluster, holder, leaseMs / 1000, pid);
      } catch (error) {
        // Unknown whether it renewed: the held term stays usable only until its last proven expiry.
        if (term !== undefined && performance.now() >= validUntil) drop(`the lease could not be renewed: ${(error as Error).message}`);
        throw error;
      }
      if (taken) {
        term = lastTerm = Number(taken.term);
        validUntil = started + leaseMs - SAFETY_MS;
        return { leading: true, term, holder, renewedAt: taken.renewed_at, silentForMs: 0 };
      }
      drop("another process holds the lease");
      lastTerm = undefined;
      const who = await pool.query<{ holder: string; term: string; renewed_at: Date; silent_ms: string }>(WHO_SQL, [cluster]);
      const row = who.rows[0];
      return row
        ? { leading: false, term: Number(row.term), holder: row.holder, renewedAt: row.renewed_at, silentForMs: Math.max(0, Number(row.silent_ms)) }
        : { leading: false };
    },
    lost() {
      drop("a write under this term was refused: another process leads");
    },
    async release() {
      const held = term;
      term = lastTerm = undefined;
      validUntil = 0;
      if (held === undefined) return;
      await pool
        .query(`UPDATE "monitor_leases" SET "expires_at" = clock_timestamp() WHERE "cluster" = $1 AND "holder" = $2 AND "term" = $3::bigint`, [
          cluster,
          holder,
          held,
        ])
        .catch(() => undefined);
    },
  };
}
