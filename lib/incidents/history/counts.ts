import { Prisma } from "@/lib/db/generated/client";
import { STATUSES } from "./queries";
import type { Db } from "../tx";

// Incidents per status from incident_status_counts, where a trigger writes +1/-1 rows as incidents open and
// change status (migration 20261123160000_incident_history): a read sums a few rows instead of counting the
// table. When the rows pile up, a read folds them into one per cluster and status; a fold racing another, or
// a writer, neither loses nor doubles a row (each DELETE only takes rows still there, and returns them once).

export type StatusCounts = Record<(typeof STATUSES)[number], number>;

const FOLD_AT = 500;

export async function countIncidentsByStatus(db: Db, cluster?: string[]): Promise<StatusCounts> {
  const where = cluster?.length ? Prisma.sql`WHERE "cluster" IN (${Prisma.join(cluster)})` : Prisma.empty;
  const [rows, [{ total }]] = await Promise.all([
    db.$queryRaw<{ status: string; n: bigint }[]>`SELECT "status", sum("delta") AS "n" FROM "incident_status_counts" ${where} GROUP BY "status"`,
    db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS "total" FROM "incident_status_counts"`,
  ]);
  if (total > FOLD_AT) await foldCounts(db);
  const counts: StatusCounts = { open: 0, acknowledged: 0, resolved: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as keyof StatusCounts] = Number(row.n);
  return counts;
}

/** One row per cluster and status (none for a zero). */
export async function foldCounts(db: Db): Promise<void> {
  await db.$executeRaw`
    WITH gone AS (DELETE FROM "incident_status_counts" RETURNING "cluster", "status", "delta")
    INSERT INTO "incident_status_counts" ("cluster", "status", "delta")
    SELECT "cluster", "status", sum("delta") FROM gone GROUP BY 1, 2 HAVING sum("delta") <> 0`;
}
