import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { loadEnv } from "@/lib/env";
import { processSlot } from "@/lib/process-slot";
import { PrismaClient } from "./generated/client";

// One PrismaClient per process (kept on globalThis so dev reloads do not open new pools).

const client = processSlot<PrismaClient>("prisma");

export function getDb(): PrismaClient {
  return client.getOrCreate(() => {
    const url = loadEnv().DATABASE_URL;
    if (!url) throw new Error("the database is not started yet (DATABASE_URL unset)");
    // A transaction left open by a process that froze (SIGSTOP, a stalled VM) would hold its locks, the lease's
    // fence among them, for ever: PostgreSQL ends such a session after this long idle inside a transaction.
    return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10, idle_in_transaction_session_timeout: 15_000 }) });
  });
}
