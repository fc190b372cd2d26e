import "server-only";
import pg from "pg";
import { loadEnv } from "@/lib/env";
import { countPendingMigrations } from "./migrate";

export interface Readiness {
  ready: boolean;
  database: "up" | "down" | "starting";
  pendingMigrations?: number;
  error?: string;
}

/** Ready when the database answers within the timeout and every migration of this build is applied. */
export async function checkReadiness(timeoutMs = 2000): Promise<Readiness> {
  const url = loadEnv().DATABASE_URL;
  if (!url) return { ready: false, database: "starting", error: "database not started yet" };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const pending = await countPendingMigrations(client);
    return { ready: pending === 0, database: "up", pendingMigrations: pending, ...(pending > 0 ? { error: `${pending} migration(s) not applied` } : {}) };
  } catch (error) {
    return { ready: false, database: "down", error: (error as Error).message };
  } finally {
    await client.end().catch(() => undefined);
  }
}
