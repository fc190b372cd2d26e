import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/db/generated/client";
import { migrate } from "@/lib/db/migrate";
import type { Signal, SignalId, SignalStatus } from "@/lib/signals/signal-model";
import { createTestDatabase } from "@/test/database";

// Test helpers for the incident store: a migrated database of its own and signals as the monitor emits them.

export async function migratedDatabase(): Promise<{ url: string; prisma: PrismaClient; close: () => Promise<void> }> {
  const db = await createTestDatabase();
  await migrate(db.url);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }) });
  return {
    url: db.url,
    prisma,
    close: async () => {
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

export const signal = (id: SignalId, subject: string, state: SignalStatus, detail = `${id} ${state}`): Signal => ({
  id,
  subject,
  state,
  detail,
  evidence: { seen: detail },
});
export const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, 0) + s * 1000);
