import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../lib/db/embedded";

// One real PostgreSQL for the database tests (the same embedded server `npm start` uses), in a
// throw-away directory. Each test file creates its own database in it.

let stop: (() => Promise<void>) | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = await mkdtemp(path.join(tmpdir(), "faultline-test-pg-"));
  await chmod(dir, 0o711);
  const started = await startEmbeddedPostgres(dir, () => undefined);
  stop = started.stop;
  project.provide("adminDatabaseUrl", started.url);
}

export async function teardown(): Promise<void> {
  await stop?.();
  if (dir) await rm(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
