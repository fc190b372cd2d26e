import pg from "pg";
import type { PrismaClient } from "@/lib/db/generated/client";
import { onIncidentsHere } from "@/lib/live/bus";
import { processSlot } from "@/lib/process-slot";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { FENCE_SQL, fenceArgs, type Fence } from "@/lib/store/fence";
import { cleanText } from "@/lib/text/outside-text";

// How the replicas of one Faultline agree within a second (docs/replicas.md): the leader of a cluster writes each
// health a viewer would notice to live_health, and every process announces its incident changes, both with a
// NOTIFY on one channel. Every process LISTENs on it: a follower loads the leader's health and publishes it as its
// own (with the leader's read time), and each process tells its own open pages about the others' incident changes.
// A reconnect catches up by reading everything once, since notifications sent while it was away are lost.

export const CHANNEL = "faultline_live";
/** PostgreSQL refuses a payload of 8,000 bytes or more: a longer list of ids is sent as "something changed". */
const PAYLOAD_LIMIT = 7_900;
const RECONNECT_MS = [250, 500, 1_000, 2_000, 5_000];

export type LinkMessage = { kind: "health"; cluster: string; digest: string } | { kind: "incidents"; ids: number[] };

export interface LinkHandlers {
  /** A leader elsewhere stored a new health of this cluster. */
  health(cluster: string, digest: string): void;
  /** Another replica changed these incidents (empty: something changed). */
  incidents(ids: number[]): void;
  /** The link (re)connected: anything sent while it was away is lost, so read everything once. */
  caughtUp(): void;
}

export interface ReplicaLink {
  readonly origin: string;
  /** Whether the LISTEN connection is up now. */
  connected(): boolean;
  stop(): Promise<void>;
}

/** Reads one notification's payload; anything not in the expected shape (or our own) is ignored. */
export function readMessage(payload: string | undefined, origin: string): LinkMessage | undefined {
  if (!payload || payload.length > PAYLOAD_LIMIT) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.o !== "string" || m.o === origin) return undefined;
  if (m.k === "health" && typeof m.c === "string" && m.c.length <= 253 && typeof m.d === "string" && /^[0-9a-f]{40}$/.test(m.d))
    return { kind: "health", cluster: m.c, digest: m.d };
  if (m.k === "incidents" && Array.isArray(m.ids) && m.ids.every((id) => Number.isSafeInteger(id) && id > 0))
    return { kind: "incidents", ids: m.ids as number[] };
  return undefined;
}

export const healthMessage = (origin: string, cluster: string, digest: string) => JSON.stringify({ o: origin, k: "health", c: cluster, d: digest });

export function incidentsMessage(origin: string, ids: number[]): string {
  const text = JSON.stringify({ o: origin, k: "incidents", ids });
  return text.length <= PAYLOAD_LIMIT ? text : JSON.stringify({ o: origin, k: "incidents", ids: [] });
}

/**
 * Listens for the other replicas' messages, and relays this process's incident changes to them. Reconnects with
 * backoff; each (re)connection calls `caughtUp`.
 */
export function startReplicaLink(
  connectionString: string,
  origin: string,
  db: PrismaClient,
  handlers: LinkHandlers,
  opts: { relayIncidents?: boolean } = {},
): ReplicaLink {
  let client: pg.Client | undefined;
  let up = false;
  let stopped = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const fresh = new pg.Client({ connectionString, connectionTimeoutMillis: 3_000, keepAlive: true });
    const lost = () => {
      if (client !== fresh) return;
      client = undefined;
      up = false;
      fresh.end().catch(() => undefined);
      schedule();
    };
    fresh.on("error", lost);
    fresh.on("end", lost);
    fresh.on("notification", (n) => {
      if (n.channel !== CHANNEL) return;
      const message = readMessage(n.payload, origin);
      if (message?.kind === "health") handlers.health(message.cluster, message.digest);
      else if (message?.kind === "incidents") handlers.incidents(message.ids);
    });
    client = fresh;
    try {
      await fresh.connect();
      await fresh.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      if (attempt === 0) console.warn(`[faultline] replica link: could not listen: ${cleanText((error as Error).message, 300)}; retrying`);
      return lost();
    }
    if (stopped) return void fresh.end().catch(() => undefined);
    up = true;
    attempt = 0;
    handlers.caughtUp();
  };
  const schedule = () => {
    if (stopped || retry) return;
    const wait = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)];
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, wait);
    retry.unref();
  };
  // What this process changed, for the others' open pages; a relay that fails leaves them to their next poll.
  const unsubscribe =
    opts.relayIncidents === false
      ? () => undefined
      : onIncidentsHere((ids) => {
          void db.$executeRawUnsafe(`SELECT pg_notify($1, $2)`, CHANNEL, incidentsMessage(origin, ids)).catch(() => undefined);
        });
  void connect();
  return {
    origin,
    connected: () => up,
    async stop() {
      stopped = true;
      unsubscribe();
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      up = false;
      if (c) await c.end().catch(() => undefined);
    },
  };
}

const links = processSlot<{ link?: ReplicaLink }>("replica-link");

/** The process's one link, started on first use. */
export function ensureReplicaLink(start: () => ReplicaLink): ReplicaLink {
  const slot = links.getOrCreate(() => ({}));
  return (slot.link ??= start());
}

export async function stopReplicaLink(): Promise<void> {
  const slot = links.getOrCreate(() => ({}));
  const link = slot.link;
  slot.link = undefined;
  await link?.stop();
}

// The leader's side: each health a viewer would notice replaces the stored one and is announced in the same
// statement (a NOTIFY is delivered only when its transaction commits, so no follower reads ahead of the row);
// the read time alone is written each round, without a message (followers read it each round).
const SHARE_SQL = `
WITH fence AS (${FENCE_SQL}),
stored AS (
  INSERT INTO "live_health" ("cluster", "term", "digest", "read_at", "health", "updated_at")
  SELECT $1, $3::bigint, $4, $5::timestamptz, $6::jsonb, clock_timestamp() FROM fence
  ON CONFLICT ("cluster") DO UPDATE SET "term" = EXCLUDED."term", "digest" = EXCLUDED."digest", "read_at" = EXCLUDED."read_at",
    "health" = EXCLUDED."health", "updated_at" = EXCLUDED."updated_at"
  RETURNING 1
)
SELECT pg_notify('${CHANNEL}', $7) FROM stored`;

const READ_AT_SQL = `UPDATE "live_health" SET "read_at" = $4::timestamptz, "updated_at" = clock_timestamp()
WHERE "cluster" = $1 AND "digest" = $5 AND faultline_fence($1, $2, $3::bigint)`;

interface Sharing {
  /** The digest stored last. */
  digest?: string;
  inFlight?: Promise<void>;
  /** The latest health waiting for the write in flight (older ones are superseded). */
  next?: { health: ClusterHealth; digest: string; fence: Fence };
}
const sharing = processSlot<Map<string, Sharing>>("replica-sharing");

/**
 * Stores the leader's latest health for the followers: the whole health when its digest changed, the read time
 * otherwise. One write per cluster at a time; a newer health replaces one waiting. Resolves when written; a
 * stale term rejects (isStaleTerm), and any other failure is retried with the next health.
 */
export function shareHealth(db: PrismaClient, origin: string, fence: Fence, health: ClusterHealth, digest: string): Promise<void> {
  const map = sharing.getOrCreate(() => new Map());
  let state = map.get(health.name);
  if (!state) map.set(health.name, (state = {}));
  const s = state;
  s.next = { health, digest, fence };
  if (s.inFlight) return s.inFlight;
  const drain = async (): Promise<void> => {
    while (s.next) {
      const { health: h, digest: d, fence: f } = s.next;
      s.next = undefined;
      if (s.digest === d) {
        await db.$executeRawUnsafe(READ_AT_SQL, ...fenceArgs(f), h.checkedAt, d);
      } else {
        await db.$executeRawUnsafe(SHARE_SQL, ...fenceArgs(f), d, h.checkedAt, JSON.stringify(h), healthMessage(origin, h.name, d));
        s.digest = d;
      }
    }
  };
  s.inFlight = drain().finally(() => {
    s.inFlight = undefined;
  });
  return s.inFlight;
}

/** Forgets what was stored for a cluster (this process stopped leading it: the next leader writes its own). */
export function forgetShared(cluster: string): void {
  sharing.getOrCreate(() => new Map()).delete(cluster);
}

export interface LeaderHealth {
  digest: string;
  readAt: Date;
  term: number;
  /** Present when the stored digest differs from the one asked about. */
  health?: ClusterHealth;
}

/** What the leader stored for a cluster; the whole health only when it is not the one this process holds. */
export async function readLeaderHealth(db: PrismaClient, cluster: string, heldDigest: string | undefined): Promise<LeaderHealth | undefined> {
  const rows = await db.$queryRawUnsafe<{ digest: string; read_at: Date; term: bigint; health: unknown }[]>(
    `SELECT "digest", "read_at", "term", CASE WHEN "digest" = $2 THEN NULL ELSE "health" END AS "health" FROM "live_health" WHERE "cluster" = $1`,
    cluster,
    heldDigest ?? "",
  );
  const row = rows[0];
  if (!row) return undefined;
  const health = row.health === null ? undefined : asHealth(row.health, cluster);
  return { digest: row.digest, readAt: row.read_at, term: Number(row.term), health };
}

/** The stored health, if it has the shape of one of this cluster's (a row written by another version is not trusted). */
function asHealth(value: unknown, cluster: string): ClusterHealth | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const h = value as Partial<ClusterHealth>;
  const shaped =
    h.name === cluster &&
    typeof h.checkedAt === "string" &&
    Array.isArray(h.signals) &&
    Array.isArray(h.sources) &&
    Array.isArray(h.serverMatrices) &&
    Array.isArray(h.reasons) &&
    typeof h.summary?.state === "string";
  return shaped ? (h as ClusterHealth) : undefined;
}
