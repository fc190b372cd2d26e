import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/test/database";
import { PrismaClient } from "./generated/client";
import { countPendingMigrations, listMigrations, migrate, MigrationError, MIGRATIONS_DIR } from "./migrate";

// Against a real PostgreSQL (the embedded server started by test/global-setup.ts).

let db: { url: string; drop: () => Promise<void> };
let copies: string[] = [];
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.drop();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  copies = [];
});

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function migrationsCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

describe("migrations", () => {
  it("applies every migration once and records it the way Prisma does", async () => {
    const all = await listMigrations();
    const first = await migrate(db.url);
    expect(first.applied).toEqual(all.map((m) => m.name));
    const again = await migrate(db.url);
    expect(again.applied).toEqual([]);

    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; id: string }>(
      `SELECT id, migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(all.map((m) => m.name));
    for (const row of rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it("lets parallel starts race without applying anything twice", async () => {
    const results = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
    const applied = results.flatMap((r) => r.applied);
    expect(applied).toEqual((await listMigrations()).map((m) => m.name));
  });

  it("refuses to run when an applied migration was edited", async () => {
    await migrate(db.url);
    const dir = migrationsCopy();
    const [first] = await listMigrations(dir);
    const file = path.join(dir, first.name, "migration.sql");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n-- edited\n`);
    await expect(migrate(db.url, dir)).rejects.toThrow(new MigrationError(`migration ${first.name} was edited after it was applied (checksum differs)`));
  });

  it("rolls back a failing migration and leaves the earlier ones in place", async () => {
    const dir = migrationsCopy();
    const bad = path.join(dir, "29991231000000_broken");
    cpSync(path.join(dir, (await listMigrations(dir))[0].name), bad, { recursive: true });
    writeFileSync(path.join(bad, "migration.sql"), `CREATE TABLE "half_done" (id int);\nSELECT * FROM "no_such_table";\n`);
    await expect(migrate(db.url, dir)).rejects.toThrow(/migration 29991231000000_broken failed and was rolled back/);
    expect(await query(`SELECT to_regclass('"half_done"') AS t`)).toEqual([{ t: null }]);
    const names = (await query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations"`)).map((r) => r.migration_name);
    expect(names).not.toContain("29991231000000_broken");
    expect(names.length).toBe((await listMigrations()).length);
  });

  it("reports pending migrations to the readiness check", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      expect(await countPendingMigrations(client)).toBe((await listMigrations()).length);
      await migrate(db.url);
      expect(await countPendingMigrations(client)).toBe(0);
    } finally {
      await client.end();
    }
  });
});

describe("schema.prisma and the migrated database", () => {
  const TYPES: Record<string, string> = {
    String: "text",
    Int: "integer",
    BigInt: "bigint",
    DateTime: "timestamp with time zone",
    Boolean: "boolean",
    Json: "jsonb",
  };
  /** A list field is an array of its element's type. */
  const ARRAY_OF: Record<string, string> = { String: "ARRAY of text", Int: "ARRAY of int4", DateTime: "ARRAY of timestamptz" };

  /** The data model Prisma generated from schema.prisma (lib/db/generated, by `prisma generate`). */
  function generatedModel(): { models: Record<string, { dbName: string | null; fields: { name: string; kind: string; type: string; dbName?: string }[] }> } {
    const source = readFileSync(path.join(process.cwd(), "lib/db/generated/internal/class.ts"), "utf8");
    const match = source.match(/config\.runtimeDataModel = JSON\.parse\(("(?:[^"\\]|\\.)*")\)/);
    if (!match) throw new Error("runtimeDataModel not found in the generated client; did the Prisma generator change?");
    return JSON.parse(JSON.parse(match[1]));
  }

  it("has a table with matching columns and types for every model, and nothing more", async () => {
    await migrate(db.url);
    const columns = (
      await query<{ table_name: string; column_name: string; data_type: string; udt_name: string }>(
        `SELECT table_name, column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      )
    ).map(({ udt_name, ...c }) => ({ ...c, data_type: c.data_type === "ARRAY" ? `ARRAY of ${udt_name.replace(/^_/, "")}` : c.data_type }));
    // What the generated model does not say, read from schema.prisma: columns of a type Prisma does not map
    // (Unsupported("tsvector")) are left out of it, and a list (DateTime[]) is an ARRAY.
    const schema = readFileSync(path.join(process.cwd(), "prisma/schema.prisma"), "utf8");
    const models = [...schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)].map(([, name, body]) => ({ name, body }));
    const lists = new Set(models.flatMap(({ name, body }) => [...body.matchAll(/^\s+(\w+)\s+\w+\[\]/gm)].map((m) => `${name}.${m[1]}`)));
    const expected = Object.entries(generatedModel().models).flatMap(([name, model]) =>
      model.fields
        .filter((f) => f.kind === "scalar" || f.kind === "enum")
        .map((f) => ({
          table_name: model.dbName ?? name,
          column_name: f.dbName ?? f.name,
          data_type: (lists.has(`${name}.${f.name}`) ? ARRAY_OF : TYPES)[f.type] ?? `(${f.type})`,
        })),
    );
    for (const { name, body } of models)
      for (const [, column, type] of body.matchAll(/^\s+(\w+)\s+Unsupported\("(\w+)"\)/gm))
        expected.push({ table_name: generatedModel().models[name].dbName ?? name, column_name: column, data_type: type });
    const key = (c: { table_name: string; column_name: string }) => `${c.table_name}.${c.column_name}`;
    expect([...columns].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
  });

  it("round-trips a row through the generated Prisma client", async () => {
    await migrate(db.url);
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }) });
    try {
      const created = await prisma.startup.create({ data: { version: "9.9.9", catalogHash: "abc", entryCount: 78 } });
      const read = await prisma.startup.findUniqueOrThrow({ where: { id: created.id } });
      expect(read).toMatchObject({ version: "9.9.9", catalogHash: "abc", entryCount: 78 });
      expect(read.startedAt).toBeInstanceOf(Date);
    } finally {
      await prisma.$disconnect();
    }
  });
});
