import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, MIGRATIONS_DIR } from "@/lib/db/migrate";
import { createTestDatabase } from "@/test/database";

// On a real PostgreSQL holding rows of the two old tables: the migration that makes one signal-state table
// moves the incident rules' memory into signal_states and drops incident_rule_states.

const MIGRATION = "20261123080000_one_signal_state_table";
let db: { url: string; drop: () => Promise<void> };
let client: pg.Client;
let before: string;
beforeAll(async () => {
  db = await createTestDatabase();
  before = mkdtempSync(path.join(tmpdir(), "faultline-migrations-"));
  cpSync(MIGRATIONS_DIR, before, { recursive: true });
  rmSync(path.join(before, MIGRATION), { recursive: true });
  await migrate(db.url, before);
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await db.drop();
  rmSync(before, { recursive: true, force: true });
});

const T = (s: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, s));

describe("the one signal-state table migration", () => {
  it("keeps what the store committed, adds the rules' memory to it, and drops the old table", async () => {
    // Stored by the monitor only; by both; and by the rules only (a store write that was refused, an absent subject).
    await client.query(
      `INSERT INTO "signal_states" ("cluster", "signal", "subject", "state", "since", "detail", "evidence", "updated_at") VALUES
       ('prod', 'openbao.sealed', 'openbao', 'ok', $1, 'unsealed', '{"status":200}', $1),
       ('prod', 'kms.plugin.unhealthy', 'master-1/2', 'critical', $2, 'plugin down', '{"node":"master-1"}', $2)`,
      [T(0), T(5)],
    );
    await client.query(
      `INSERT INTO "incident_rule_states" ("cluster", "signal", "subject", "state", "since", "streak", "handled", "detail", "updated_at") VALUES
       ('prod', 'kms.plugin.unhealthy', 'master-1/2', 'critical', $1, 3, true, 'plugin down (round 3)', $2),
       ('prod', 'kms.plugin.unhealthy', 'master-9/1', 'absent', $2, 1, false, 'no longer reported', $2)`,
      [T(6), T(60)],
    );

    expect((await migrate(db.url)).applied).toEqual([MIGRATION]);

    const rows = (
      await client.query(
        `SELECT "signal", "subject", "state", "since", "detail", "evidence", "judged", "judged_since", "streak", "handled" FROM "signal_states" ORDER BY "signal", "subject"`,
      )
    ).rows;
    expect(rows).toEqual([
      {
        signal: "kms.plugin.unhealthy",
        subject: "master-1/2",
        state: "critical",
        since: T(5),
        detail: "plugin down (round 3)",
        evidence: { node: "master-1" },
        judged: "critical",
        judged_since: T(6),
        streak: 3,
        handled: true,
      },
      {
        signal: "kms.plugin.unhealthy",
        subject: "master-9/1",
        state: "absent",
        since: T(60),
        detail: "no longer reported",
        evidence: null,
        judged: "absent",
        judged_since: T(60),
        streak: 1,
        handled: false,
      },
      {
        signal: "openbao.sealed",
        subject: "openbao",
        state: "ok",
        since: T(0),
        detail: "unsealed",
        evidence: { status: 200 },
        judged: null,
        judged_since: null,
        streak: 0,
        handled: false,
      },
    ]);
    expect((await client.query(`SELECT to_regclass('"incident_rule_states"') AS t`)).rows).toEqual([{ t: null }]);
  });
});
