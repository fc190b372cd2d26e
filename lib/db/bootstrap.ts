import "server-only";
import { getCatalog } from "@/lib/catalog/queries";
import { processSlot } from "@/lib/process-slot";
import { getDb } from "./client";
import { prepareDatabase, type DatabaseState } from "./lifecycle";

// Server start-up inside Next: the database (already started by `npm start`, or started here under
// `next dev`), then a record of which build and catalog revision serve from now on.

const recorded = processSlot<Promise<DatabaseState>>("startup-recorded");

function log(line: string): void {
  console.log(`[faultline] ${line}`);
}

async function bootstrap(version: string): Promise<DatabaseState> {
  const state = await prepareDatabase(log);
  const catalog = getCatalog();
  await getDb().startup.create({ data: { version, catalogHash: catalog.hash, entryCount: catalog.entries.length } });
  return state;
}

export function ensureDatabase(version: string): Promise<DatabaseState> {
  return recorded.getOrCreate(() => bootstrap(version));
}
