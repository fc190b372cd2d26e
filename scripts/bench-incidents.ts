// npm run bench:incidents -- [incidents] [events] [requests]: seeds a throw-away embedded PostgreSQL with a year of
// incident history (100,000 incidents and 1,000,000 timeline events by default: members, suspects, notes, a
// realistic mix of status, severity and clusters), starts the real server on it (`npm start`: built when the
// sources changed, no demo cluster) and measures through HTTP, one request at a time: the list's first page, later
// pages by cursor, filtered lists, searches, an incident's detail and the /incidents page. Prints p50 and p95.
// A query the server refuses (an older build without cursors or search) is reported as such, not measured.
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startEmbeddedPostgres } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { seedHistory } from "./bench-incidents-seed";
import { freePort } from "@/lib/free-port";

const INCIDENTS = Number(process.argv[2] ?? 100_000);
const EVENTS = Number(process.argv[3] ?? 1_000_000);
const REQUESTS = Number(process.argv[4] ?? 100);

const log = (line: string) => console.log(`[bench] ${line}`);

/** `npm start` against the seeded database; resolves once it says it is ready. */
async function startServer(url: string, port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "scripts/start.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      FAULTLINE_DEMO: "off",
      FAULTLINE_DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split("\n")) if (/building|ready on|failed/.test(line)) log(`server: ${line.trim()}`);
      if (/ready on http/.test(output)) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
  });
}

interface Measured {
  name: string;
  p50?: number;
  p95?: number;
  note?: string;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** Times `n` requests, one at a time, after a short warm-up; the paths come from `pathOf(i)`. */
async function measure(base: string, name: string, pathOf: (i: number) => string, n = REQUESTS): Promise<Measured> {
  const first = await fetch(base + pathOf(0));
  const body = await first.text();
  if (first.status !== 200) return { name, note: `refused: HTTP ${first.status} ${body.slice(0, 160)}` };
  for (let i = 0; i < 5; i++) await (await fetch(base + pathOf(i))).text();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const response = await fetch(base + pathOf(i));
    await response.text();
    times.push(performance.now() - t0);
    if (response.status !== 200) return { name, note: `HTTP ${response.status} on ${pathOf(i)}` };
  }
  times.sort((a, b) => a - b);
  return { name, p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

/** The cursors of the first `pages` pages of a list (for requests deep in the history). */
async function cursors(base: string, query: string, pages: number): Promise<string[] | undefined> {
  const found: string[] = [];
  let next: string | null = null;
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${base}/api/v1/incidents?${query}${next ? `&cursor=${next}` : ""}`);
    if (response.status !== 200) return undefined;
    const page = (await response.json()) as { next?: string | null };
    if (!page.next) break;
    next = page.next;
    found.push(next);
  }
  return found.length ? found : undefined;
}

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-bench-incidents-"));
  await chmod(dir, 0o711); // as root, PostgreSQL runs as "postgres" and must reach its data directory
  const db = await startEmbeddedPostgres(path.join(dir, "data"), () => undefined);
  let server: ChildProcess | undefined;
  try {
    await migrate(db.url);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const ids = await seedHistory(client, INCIDENTS, EVENTS, log);
    await client.end();

    const port = await freePort();
    log(`starting the server on 127.0.0.1:${port} (npm start; it builds first when the sources changed)`);
    server = await startServer(db.url, port, path.join(dir, "server-data"));
    const base = `http://127.0.0.1:${port}`;
    const deep = await cursors(base, "limit=100", 100);
    const deepResolved = await cursors(base, "status=resolved&severity=warning&limit=100", 50);
    const pick = (i: number) => ids[(i * 7919) % ids.length];
    const results: Measured[] = [];
    const run = async (name: string, pathOf: (i: number) => string, n?: number) => {
      const m = await measure(base, name, pathOf, n);
      results.push(m);
      log(m.note ? `${name}: ${m.note}` : `${name}: p50 ${m.p50!.toFixed(1)} ms, p95 ${m.p95!.toFixed(1)} ms`);
    };
    await run("list, first page (100)", () => "/api/v1/incidents");
    await run("list, first page (500)", () => "/api/v1/incidents?limit=500", Math.ceil(REQUESTS / 4));
    if (deep) await run(`list, pages 2-${deep.length + 1} by cursor`, (i) => `/api/v1/incidents?limit=100&cursor=${deep[i % deep.length]}`);
    else results.push({ name: "list, later pages by cursor", note: "no cursor in the answer" });
    if (deepResolved)
      await run(
        "list, resolved warnings, pages by cursor",
        (i) => `/api/v1/incidents?status=resolved&severity=warning&limit=100&cursor=${deepResolved[i % deepResolved.length]}`,
      );
    await run("filtered: one cluster", (i) => `/api/v1/incidents?cluster=prod-${i % 20}`);
    await run("filtered: resolved critical in one cluster", (i) => `/api/v1/incidents?status=resolved&severity=critical&cluster=prod-${i % 20}`);
    await run("filtered: unresolved", () => "/api/v1/incidents?status=open,acknowledged");
    await run("filtered: one month, 8 months ago", () => `/api/v1/incidents?from=${monthAgo(8)}&to=${monthAgo(7)}`);
    const terms = [
      "sealed",
      "seal",
      "node-17/kms-a",
      "openbao-unavailable",
      "rotated",
      '"kube-apiserver kms-providers"',
      "transit -sealed",
      "nothing-like-this",
    ];
    for (const q of terms) await run(`search: ${q}`, () => `/api/v1/incidents?q=${encodeURIComponent(q)}`);
    await run("search: a different note word each time", (i) => `/api/v1/incidents?q=${encodeURIComponent(`note${(i * 37) % 500}`)}`);
    await run("detail", (i) => `/api/v1/incidents/${pick(i)}`);
    await run("/incidents page", () => "/incidents", Math.ceil(REQUESTS / 2));
    if (deep) await run("/incidents page by cursor", (i) => `/incidents?cursor=${deep[i % deep.length]}`, Math.ceil(REQUESTS / 2));
    await run("/incidents page, search", () => "/incidents?q=sealed", Math.ceil(REQUESTS / 2));

    console.log(
      `\n${INCIDENTS.toLocaleString("en")} incidents, ${EVENTS.toLocaleString("en")} events; ${REQUESTS} requests each, one at a time, after 5 to warm up`,
    );
    console.log(`${"what".padEnd(48)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}`);
    for (const r of results) console.log(`${r.name.padEnd(48)} ${r.note ? r.note : `${r.p50!.toFixed(1).padStart(8)} ${r.p95!.toFixed(1).padStart(8)}`}`);
  } finally {
    if (server?.pid) {
      process.kill(-server.pid, "SIGTERM");
      await new Promise((r) => server!.once("exit", r));
    }
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const monthAgo = (months: number) => new Date(Date.now() - months * 30 * 86_400_000).toISOString().slice(0, 10);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
