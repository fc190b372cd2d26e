// npm run bench:notify-crash [-- --kills 30]: SIGKILL Faultline at random moments while incidents change, restart it,
// and count what a webhook receiver got: expected (committed changes × receivers), delivered, lost, duplicated.
// Faultline is the built server (`npm start`'s scripts/start.ts; the first start builds when the sources changed),
// against an embedded PostgreSQL of this script's own, so a kill takes the server and never the database.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { drive, freePort, kill, startServer, tally, waitDrained, waitReady, type Server } from "@/test/notify-crash";
import { startTestReceiver } from "@/test/notify-receiver";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const KILLS = arg("kills", 30);
const root = process.cwd();

async function main(): Promise<void> {
  const began = Date.now();
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-notify-crash-"));
  await chmod(dir, 0o711); // as root, PostgreSQL runs as "postgres" and must reach its folder
  const pg = await startEmbeddedPostgres(path.join(dir, "db"), () => undefined);
  // A receiver that sometimes answers 503 and sometimes slowly: retries and kills mid-POST both happen.
  const receiver = await startTestReceiver();
  receiver.answer = () => (Math.random() < 0.08 ? { status: 503 } : { status: 200, delayMs: Math.random() < 0.3 ? Math.random() * 300 : 0 });
  const port = await freePort();
  const options = {
    root,
    port,
    databaseUrl: pg.url,
    dataDir: path.join(dir, "data"),
    receiverUrl: receiver.url,
    logFile: "test-results/notify-crash-server.log",
  };
  const seq = { n: 0 };
  let requests = 0;
  let beforeReady = 0;
  const upTimes: number[] = [];
  try {
    for (let k = 1; k <= KILLS; k++) {
      const server: Server = startServer(options);
      const started = Date.now();
      // One kill in five lands during start-up (migrations, the worker's first pass), the rest while incidents change.
      if (k > 1 && Math.random() < 0.2) {
        await new Promise((r) => setTimeout(r, Math.random() * 3000));
        beforeReady++;
        await kill(server);
        console.log(`kill ${k}/${KILLS}: during start-up, ${Date.now() - started} ms after spawn`);
        continue;
      }
      if (!(await waitReady(server))) throw new Error(`the server exited before it was ready (see ${options.logFile})`);
      upTimes.push(Date.now() - started);
      const driver = drive(server, seq);
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 3500));
      await kill(server);
      requests += await driver.stop();
      console.log(`kill ${k}/${KILLS}: ${Date.now() - started} ms after spawn (ready in ${upTimes.at(-1)} ms)`);
    }
    // The last start: nothing changes any more, the worker drains what is left.
    const server = startServer(options);
    await waitReady(server);
    const drainStart = Date.now();
    const pending = await waitDrained(pg.url, 180_000);
    const drainMs = Date.now() - drainStart;
    await kill(server, "SIGTERM");
    const t = await tally(pg.url, receiver);
    console.log(
      JSON.stringify(
        {
          kills: KILLS,
          killsDuringStartup: beforeReady,
          apiRequests: requests,
          changes: t.changes,
          byKind: t.byKind,
          expected: t.expected,
          outboxRows: t.outboxRows,
          missingOutboxRows: t.missingRows,
          delivered: t.delivered,
          lost: t.lost,
          unexpected: t.unexpected,
          rawDuplicateDeliveries: t.rawDuplicates,
          duplicatedAfterDedupe: t.duplicatedAfterDedupe,
          receiverRefusals503: t.refusedByReceiver,
          pendingAtEnd: pending,
          failed: t.failed,
          drainMs,
          medianReadyMs: upTimes.sort((a, b) => a - b)[Math.floor(upTimes.length / 2)],
          runSeconds: Math.round((Date.now() - began) / 1000),
        },
        null,
        2,
      ),
    );
    if (t.lost > 0 || t.duplicatedAfterDedupe > 0 || t.missingRows > 0 || t.unexpected > 0 || pending > 0) process.exitCode = 1;
  } finally {
    await receiver.close();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
