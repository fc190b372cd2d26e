import { loadEnv, setDatabaseUrl } from "@/lib/env";
import { processSlot } from "@/lib/process-slot";
import { startEmbeddedPostgres } from "./embedded";
import { migrate } from "./migrate";

// The database's life in one process: start it (embedded unless DATABASE_URL is given), migrate it,
// stop it. Used by scripts/start.ts before Next starts and by instrumentation under `next dev`;
// the state lives on globalThis so both see one database.

const databaseState = processSlot<Promise<DatabaseState>>("database");

export interface DatabaseState {
  embedded: boolean;
  stop: () => Promise<void>;
}

async function start(log: (line: string) => void): Promise<DatabaseState> {
  const env = loadEnv();
  let state: DatabaseState = { embedded: false, stop: async () => {} };
  if (!env.DATABASE_URL) {
    const started = await startEmbeddedPostgres(env.FAULTLINE_DATA_DIR, log);
    setDatabaseUrl(started.url);
    state = { embedded: true, stop: started.stop };
  } else {
    log(`database: ${redactUrl(env.DATABASE_URL)}`);
  }
  const result = await migrate(loadEnv().DATABASE_URL!);
  log(result.applied.length > 0 ? `migrations applied: ${result.applied.join(", ")}` : `migrations: all ${result.total} already applied`);
  return state;
}

/** Starts and migrates the database once per process; later calls share the first result. */
export function prepareDatabase(log: (line: string) => void): Promise<DatabaseState> {
  return databaseState.getOrCreate(() => start(log));
}

export async function stopDatabase(): Promise<void> {
  const pending = databaseState.get();
  if (!pending) return;
  const state = await pending.catch(() => undefined);
  await state?.stop();
}

/** Never log a password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
