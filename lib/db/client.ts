import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { loadEnv } from "@/lib/env";
import { PrismaClient } from "./generated/client";

// One PrismaClient per process (kept on globalThis so dev reloads do not open new pools).

const KEY = Symbol.for("faultline.prisma");

export function getDb(): PrismaClient {
  const store = globalThis as unknown as Record<symbol, PrismaClient | undefined>;
  if (!store[KEY]) {
    const url = loadEnv().DATABASE_URL;
    if (!url) throw new Error("the database is not started yet (DATABASE_URL unset)");
    store[KEY] = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }) });
  }
  return store[KEY];
}
