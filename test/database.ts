import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** A fresh, empty database on the test server; returns its URL and a function to drop it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject("adminDatabaseUrl");
  const name = `test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
