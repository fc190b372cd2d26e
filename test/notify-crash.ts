import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestReceiver } from "./notify-receiver";
import { freePort } from "@/lib/free-port";
export { freePort };

// The crash run behind `npm run bench:notify-crash` and e2e/notifications.spec.ts: Faultline as `npm start` runs it
// (scripts/start.ts, the built server) against a PostgreSQL of its own, incidents changed through the real HTTP API
// (Alertmanager deliveries, acknowledge, resolve), SIGKILL of the whole process group at random moments, restarts.

export const CRASH_TOKEN = "notify-crash-webhook-token-0001";
const CATALOG_IDS = ["openbao-sealed", "jwt-expired-apiserver-down", "jwt-file-missing", "jwt-wrong-audience"];

export interface ServerOptions {
  root: string;
  port: number;
  databaseUrl: string;
  dataDir: string;
  receiverUrl: string;
  logFile: string;
}

export interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

/** The receivers the server is configured with: Faultline's JSON and the Slack form, on one loopback receiver. */
export function receiversFor(url: string) {
  return [
    { name: "pager", url: `${url}?r=pager`, format: "json", timeoutSeconds: 2 },
    { name: "chat", url: `${url}?r=chat`, format: "slack", timeoutSeconds: 2 },
  ];
}

let log: WriteStream | undefined;

/** Starts `scripts/start.ts` in its own process group, so a SIGKILL takes the server and tsx's wrapper at once. */
export function startServer(o: ServerOptions): Server {
  mkdirSync(path.dirname(o.logFile), { recursive: true });
  log ??= createWriteStream(o.logFile, { flags: "a" });
  const child = spawn(path.join(o.root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: o.root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(o.port),
      HOST: "127.0.0.1",
      DATABASE_URL: o.databaseUrl,
      FAULTLINE_DATA_DIR: o.dataDir,
      FAULTLINE_DEMO: "off",
      FAULTLINE_WEBHOOK_TOKEN: CRASH_TOKEN,
      FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify(receiversFor(o.receiverUrl)),
      FAULTLINE_NOTIFY_RETRY: JSON.stringify({ firstSeconds: 0.2, capSeconds: 2, maxAttempts: 50 }),
      FAULTLINE_INCIDENT_RULES: JSON.stringify({ groupWindowSeconds: 5, reopenWindowSeconds: 3600 }),
      FAULTLINE_PUBLIC_URL: "https://faultline.example.org",
    },
  });
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (d: Buffer) => log?.write(d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, url: `http://127.0.0.1:${o.port}`, exited };
}

export async function waitReady(server: Server, ms = 240_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return false;
    const ok = await fetch(`${server.url}/api/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server was not ready within ${ms} ms`);
}

export async function kill(server: Server, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  try {
    process.kill(-server.child.pid!, signal);
  } catch {
    // already gone
  }
  await server.exited;
}

/** Random incident changes through the HTTP API until `stop()`: openings, joins, acknowledgements, resolutions, reopenings. */
export function drive(server: Server, seq: { n: number }): { stop: () => Promise<number> } {
  let stopped = false;
  let requests = 0;
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const post = (route: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
      .then((r) => (requests++, r.body?.cancel()))
      .catch(() => undefined);
  const alert = (cluster: string, name: string, status: "firing" | "resolved", startsAt: string, catalog: string) =>
    post(
      "/api/v1/alerts/alertmanager",
      {
        version: "4",
        groupKey: `{}:{cluster="${cluster}"}`,
        status,
        receiver: "faultline",
        alerts: [
          {
            status,
            labels: { alertname: name, cluster, faultline_subject: "kms", severity: "critical", faultline_catalog_id: catalog },
            annotations: { summary: `${name} on ${cluster}` },
            startsAt,
            ...(status === "resolved" ? { endsAt: new Date().toISOString() } : {}),
            fingerprint: `${cluster}-${name}`,
          },
        ],
      },
      { authorization: `Bearer ${CRASH_TOKEN}` },
    );
  const list = async (status: string): Promise<{ id: number; cluster: string }[]> =>
    fetch(`${server.url}/api/v1/incidents?status=${status}&limit=500`)
      .then(async (r) => (r.ok ? ((await r.json()) as { incidents: { id: number; cluster: string }[] }).incidents : []))
      .catch(() => []);
  const same = { origin: server.url };
  // The server is killed mid-request on purpose: a request or a body cut off by the kill is no answer, not a failure.
  const loop = async () => {
    while (!stopped) {
      const roll = Math.random();
      if (roll < 0.3) await alert(`c${++seq.n}`, "KmsDown", "firing", new Date().toISOString(), pick(CATALOG_IDS));
      else if (roll < 0.45) {
        const open = await list("open,acknowledged");
        if (open.length) await alert(pick(open).cluster, `Also${Math.floor(Math.random() * 3)}`, "firing", new Date().toISOString(), pick(CATALOG_IDS));
      } else if (roll < 0.65) {
        const open = await list("open");
        if (open.length) await post(`/api/v1/incidents/${pick(open).id}/acknowledge`, {}, same);
      } else if (roll < 0.85) {
        const open = await list("open,acknowledged");
        if (open.length) await post(`/api/v1/incidents/${pick(open).id}/resolve`, { resolution: "crash bench" }, same);
      } else {
        // The alert recovers and fires again: the incident resolved by hand reopens.
        const resolved = await list("resolved");
        if (resolved.length) {
          const { cluster } = pick(resolved);
          await alert(cluster, "KmsDown", "resolved", new Date(Date.now() - 60_000).toISOString(), pick(CATALOG_IDS));
          await alert(cluster, "KmsDown", "firing", new Date().toISOString(), pick(CATALOG_IDS));
        }
      }
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    }
  };
  const running = [loop(), loop()];
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(running);
      return requests;
    },
  };
}

export interface Tally {
  changes: number;
  expected: number;
  byKind: Record<string, number>;
  outboxRows: number;
  missingRows: number;
  delivered: number;
  lost: number;
  unexpected: number;
  rawDuplicates: number;
  duplicatedAfterDedupe: number;
  pending: number;
  failed: number;
  refusedByReceiver: number;
}

const KIND_OF = (from: string | null, to: string | null) =>
  to === "open" && from === "resolved"
    ? "reopened"
    : to === "open"
      ? "opened"
      : to === "acknowledged"
        ? "acknowledged"
        : to === "resolved"
          ? "resolved"
          : undefined;

/**
 * Expected: every committed status change on the timeline × each receiver (both take every kind), plus the
 * suspect changes the outbox holds (a top-suspect change is judged at write time; the timeline alone cannot
 * say which suspects_changed events were one). Delivered: distinct keys the receiver answered 2xx.
 */
export async function tally(databaseUrl: string, receiver: TestReceiver): Promise<Tally> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const names = receiversFor("").map((r) => r.name);
    const changes = (
      await client.query<{ id: string; incident_id: number; f: string | null; t: string | null }>(
        `SELECT id::text, incident_id, payload->>'from' AS f, payload->>'to' AS t FROM incident_events WHERE kind = 'status_change'`,
      )
    ).rows;
    const outbox = (
      await client.query<{ idempotency_key: string; kind: string; status: string }>(`SELECT idempotency_key, kind, status FROM notification_outbox`)
    ).rows;
    const expected = new Set<string>();
    const byKind: Record<string, number> = {};
    for (const c of changes) {
      const kind = KIND_OF(c.f, c.t);
      if (!kind) continue;
      byKind[kind] = (byKind[kind] ?? 0) + 1;
      for (const name of names) expected.add(`faultline-${c.incident_id}-${c.id}-${name}`);
    }
    const fromStatus = expected.size;
    const outboxKeys = new Set(outbox.map((r) => r.idempotency_key));
    const missingRows = [...expected].filter((k) => !outboxKeys.has(k)).length;
    for (const r of outbox.filter((r) => r.kind === "suspect_changed")) expected.add(r.idempotency_key);
    byKind.suspect_changed = outbox.filter((r) => r.kind === "suspect_changed").length / names.length;
    const delivered = new Set(receiver.delivered.keys());
    // The same change under two keys would pass a receiver's dedupe: group what arrived by what it says.
    const changeOf = new Map<string, Set<string>>();
    for (const r of receiver.requests.filter((q) => q.status < 300)) {
      const b = r.body as { incident?: { id: number }; kind?: string; occurredAt?: string; text?: string; blocks?: { elements?: { text: string }[] }[] };
      const what = b.incident
        ? `pager ${b.incident.id} ${b.kind} ${b.occurredAt}`
        : `chat ${/^Incident #\d+ [a-z ]+/.exec(b.text ?? "")?.[0]} ${b.blocks?.at(-1)?.elements?.[0]?.text.split(" · ")[0]}`;
      changeOf.set(what, (changeOf.get(what) ?? new Set()).add(r.key));
    }
    return {
      changes: fromStatus / names.length,
      expected: expected.size,
      byKind,
      outboxRows: outbox.length,
      missingRows,
      delivered: [...expected].filter((k) => delivered.has(k)).length,
      lost: [...expected].filter((k) => !delivered.has(k)).length,
      unexpected: [...delivered].filter((k) => !expected.has(k)).length,
      rawDuplicates: [...receiver.delivered.values()].reduce((n, c) => n + c - 1, 0),
      duplicatedAfterDedupe: [...changeOf.values()].filter((keys) => keys.size > 1).length,
      pending: outbox.filter((r) => r.status === "pending").length,
      failed: outbox.filter((r) => r.status === "failed").length,
      refusedByReceiver: receiver.requests.filter((q) => q.status >= 300).length,
    };
  } finally {
    await client.end();
  }
}

/** Waits until the outbox holds nothing pending. */
export async function waitDrained(databaseUrl: string, ms: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + ms;
    for (;;) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM notification_outbox WHERE status = 'pending'`);
      if (Number(rows[0].n) === 0 || Date.now() > deadline) return Number(rows[0].n);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await client.end();
  }
}
