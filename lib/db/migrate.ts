import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

// Applies prisma/migrations/*/migration.sql in order and records each in Prisma's own
// _prisma_migrations table, so `prisma migrate deploy` stays valid where its engine exists.

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
const LOCK_KEY = 0x6661756c; // "faul": one migrator at a time across processes

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    const file = path.join(dir, name, "migration.sql");
    if (!existsSync(file)) throw new MigrationError(`${file}: migration folder without migration.sql`);
    const sql = await readFile(/*turbopackIgnore: true*/ file, "utf8");
    migrations.push({ name, sql, checksum: createHash("sha256").update(sql).digest("hex") });
  }
  return migrations;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Which migrations are not yet applied; throws when the database and the folder disagree. */
export function pendingMigrations(all: Migration[], applied: AppliedRow[]): Migration[] {
  const live = applied.filter((row) => row.rolled_back_at === null);
  const failed = live.find((row) => row.finished_at === null);
  if (failed) {
    throw new MigrationError(
      `migration ${failed.migration_name} failed part-way earlier; fix the database by hand and mark it rolled back in _prisma_migrations`,
    );
  }
  const byName = new Map(live.map((row) => [row.migration_name, row]));
  const known = new Set(all.map((m) => m.name));
  const unknown = live.find((row) => !known.has(row.migration_name));
  if (unknown) {
    throw new MigrationError(`the database has migration ${unknown.migration_name}, which this build does not know (a newer version ran here?)`);
  }
  for (const migration of all) {
    const row = byName.get(migration.name);
    if (row && row.checksum !== migration.checksum) {
      throw new MigrationError(`migration ${migration.name} was edited after it was applied (checksum differs)`);
    }
  }
  return all.filter((migration) => !byName.has(migration.name));
}

export interface MigrateResult {
  applied: string[];
  total: number;
}

export async function migrate(connectionString: string, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const all = await listMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
    const pending = pendingMigrations(all, rows);
    for (const migration of pending) {
      const id = randomUUID();
      await client.query("BEGIN");
      try {
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
          id,
          migration.checksum,
          migration.name,
        ]);
        await client.query(migration.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new MigrationError(`migration ${migration.name} failed and was rolled back: ${(error as Error).message}`);
      }
    }
    return { applied: pending.map((m) => m.name), total: all.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/** For readyz: the number of migrations in this build that the database has not applied. */
export async function countPendingMigrations(client: pg.ClientBase, dir = MIGRATIONS_DIR): Promise<number> {
  const all = await listMigrations(dir);
  const exists = await client.query(`SELECT to_regclass('"_prisma_migrations"') AS t`);
  if (exists.rows[0].t === null) return all.length;
  const { rows } = await client.query<AppliedRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
  return pendingMigrations(all, rows).length;
}
