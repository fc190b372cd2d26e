import pg from "pg";

// Exactly one server process monitors each cluster: the one holding a Postgres session-level
// advisory lock named after the cluster. If that process dies its session ends, the lock is freed,
// and another process takes over at its next try.

export interface ClusterLock {
  readonly held: boolean;
  /** Tries to take the lock; true when this process holds it (now or already). */
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
}

export function clusterLockKey(cluster: string): string {
  return `faultline-monitor:${cluster}`;
}

export function createClusterLock(connectionString: string, cluster: string, onLost?: (error: Error) => void): ClusterLock {
  let client: pg.Client | undefined;
  let held = false;
  const drop = (error: Error) => {
    if (held) onLost?.(error);
    held = false;
    client = undefined;
  };
  return {
    get held() {
      return held;
    },
    async tryAcquire() {
      if (held) return true;
      if (!client) {
        const fresh = new pg.Client({ connectionString, connectionTimeoutMillis: 3000 });
        fresh.on("error", drop);
        fresh.on("end", () => drop(new Error("database connection ended")));
        await fresh.connect();
        client = fresh;
      }
      const result = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS locked", [clusterLockKey(cluster)]);
      held = result.rows[0].locked;
      return held;
    },
    async release() {
      const c = client;
      held = false;
      client = undefined;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
