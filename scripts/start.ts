// npm start: validate the configuration, build when the sources changed, then serve.
// npm run build (--build-only): check the catalog and build, nothing else.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { buildIsCurrent, hashSources, HASH_FILE } from "../lib/build-state";
import { CatalogError, loadCatalog } from "../lib/catalog/load";
import { formatIssue } from "../lib/content/yaml-source";
import { childEnv } from "../lib/child-env";
import { runShutdownHooks } from "../lib/process-slot";
import { prepareDatabase, stopDatabase } from "../lib/db/lifecycle";
import { EnvError, loadEnv, prepareNextEnv, type Env } from "../lib/env";

const root = process.cwd();
const began = Date.now();

function fail(message: string, code = 1): never {
  console.error(`[faultline] ${message}`);
  process.exit(code);
}

function readEnv(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) fail(error.message, 2);
    throw error;
  }
}

function build(): void {
  try {
    loadCatalog();
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    for (const issue of error.issues) console.error(formatIssue(issue));
    fail(`the catalog has ${error.issues.length} error(s); fix them and start again`);
  }
  console.log("[faultline] building the dashboard (first start, or the sources changed; about a minute on 2 cores)...");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    stdio: "inherit",
    // The build needs no secret: it runs before the embedded database exists, so without DATABASE_URL too.
    env: childEnv(prepareNextEnv()),
  });
  if (result.status !== 0) fail("next build failed; see the output above");
  writeFileSync(path.join(root, HASH_FILE), `${hashSources(root)}\n`);
}

/**
 * The old generation may grow to 1.4 times what the last full collection kept before the next one runs. V8's own
 * factor (up to 4 on a machine with memory to spare) let 100 clusters' monitors, which keep each round's reading for
 * a round, grow the heap from 200 to 700 MB between collections, and the process kept the pages (npm run bench:fleet).
 * Bounded by what is live, not by a ceiling: 5,000 nodes still get the heap they need. A --heap-growing-percent given
 * to node wins.
 */
const HEAP_GROWING_PERCENT = 40;
function limitHeapGrowth(): void {
  if (process.execArgv.some((arg) => arg.startsWith("--heap-growing-percent"))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

async function main(): Promise<void> {
  const env = readEnv();
  if (process.argv.includes("--build-only")) {
    build();
    return;
  }
  if (!buildIsCurrent(root)) build();
  else console.log("[faultline] build is current");

  try {
    await prepareDatabase((line) => console.log(`[faultline] ${line}`));
  } catch (error) {
    fail(`the database could not be prepared: ${(error as Error).message}`);
  }

  prepareNextEnv();
  limitHeapGrowth();
  const { startHttpServer } = await import("../lib/http/server");
  // lib/http imports no domain: the webhook's own body bound is handed to the edge here.
  const { OWN_BODY_ROUTES } = await import("../lib/incidents/alerts/webhook-body");
  const { RENDER_DIR } = await import("../lib/runbooks/rendered");
  const { svgStyleHashes } = await import("../lib/http/security-headers");
  let running: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    running = await startHttpServer({
      dir: root,
      host: env.HOST,
      port: env.PORT,
      bodies: OWN_BODY_ROUTES,
      allowedHosts: env.FAULTLINE_ALLOWED_HOSTS,
      tokens: { webhook: env.FAULTLINE_WEBHOOK_TOKEN, metrics: env.FAULTLINE_METRICS_TOKEN },
      styleHashes: svgStyleHashes(RENDER_DIR),
      signInOn: env.FAULTLINE_AUTH !== "none",
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") fail(`port ${env.PORT} on ${env.HOST} is already in use; stop the other server or set PORT`);
    throw error;
  }
  // Before the edge and Next.js: the socket's address in a header no client can set (lib/auth/peer.ts).
  const { stampPeer } = await import("../lib/auth/peer");
  running.server.prependListener("request", stampPeer);
  running.server.prependListener("checkContinue", stampPeer);
  const shown = env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  console.log(`[faultline] ready on http://${shown}:${env.PORT} (${((Date.now() - began) / 1000).toFixed(1)} s)`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[faultline] ${signal}: stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // The leases first: the other replicas take over at once, not after a lease runs out (docs/replicas.md).
    void runShutdownHooks(3_000)
      .then(() => running.close())
      .then(stopDatabase)
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => fail(`could not start: ${(error as Error).stack ?? String(error)}`));
