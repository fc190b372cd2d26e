import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from "node:fs";
import path from "node:path";
import { receiversFor } from "./notify-crash";
import type { RunningDemo } from "@/lib/demo/cluster/start";

// Replicas of Faultline as a platform team runs them (docs/replicas.md), for `npm run bench:replicas`: the built
// server (`npm start`'s scripts/start.ts) in processes of their own, on one PostgreSQL, watching one simulated
// cluster through a clusters file, each with its own data folder; SIGKILL, SIGSTOP and SIGCONT of a process group.

export const REPLICA_TOKEN = "replica-bench-webhook-token-0001";

export interface Replica {
  name: string;
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

/** A clusters file watching `demo` as a real cluster (kubeconfig, OpenBao with a token file, the beacon), in `dir`. */
export function writeClustersFile(dir: string, demo: RunningDemo): string {
  mkdirSync(dir, { recursive: true });
  const tokenFile = path.join(dir, "openbao-token");
  writeFileSync(tokenFile, demo.endpoints.openBaoToken, { mode: 0o600 });
  const file = path.join(dir, "clusters.yaml");
  writeFileSync(
    file,
    [
      "clusters:",
      `  - name: ${demo.name}`,
      `    kubeconfig: ${demo.kubeconfigPath}`,
      "    intervalSeconds: 2",
      "    watchStallSeconds: 20",
      "    openbao:",
      `      address: ${demo.endpoints.url}`,
      "      transitKey: k8s-kek",
      `      tokenFile: ${tokenFile}`,
      `      caFile: ${demo.caFile}`,
      "    beacon:",
      `      healthUrl: ${demo.endpoints.url}/beacon/healthz`,
      `      caFile: ${demo.caFile}`,
      "",
    ].join("\n"),
  );
  return file;
}

let log: WriteStream | undefined;

export function startReplica(o: {
  name: string;
  root: string;
  port: number;
  databaseUrl: string;
  dataDir: string;
  clustersFile: string;
  receiverUrl: string;
  logFile: string;
}): Replica {
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
      FAULTLINE_CLUSTERS_FILE: o.clustersFile,
      FAULTLINE_DEMO_PROMETHEUS: "off",
      FAULTLINE_WEBHOOK_TOKEN: REPLICA_TOKEN,
      FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify(receiversFor(o.receiverUrl)),
      FAULTLINE_NOTIFY_RETRY: JSON.stringify({ firstSeconds: 0.2, capSeconds: 2, maxAttempts: 50 }),
      FAULTLINE_PUBLIC_URL: "https://faultline.example.org",
    },
  });
  for (const stream of [child.stdout!, child.stderr!])
    stream.on("data", (d: Buffer) =>
      log?.write(
        d
          .toString()
          .replace(/^/gm, `[${o.name}] `)
          .replace(/\[\w+\] $/, ""),
      ),
    );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { name: o.name, child, url: `http://127.0.0.1:${o.port}`, exited };
}

export function signalGroup(replica: Replica, signal: NodeJS.Signals): void {
  try {
    process.kill(-replica.child.pid!, signal);
  } catch {
    // already gone
  }
}

/** The role /api/v1/clusters says this replica has for the cluster; undefined when it does not answer. */
export async function roleOf(replica: Replica, cluster: string): Promise<string | undefined> {
  const body = await fetch(`${replica.url}/api/v1/clusters`, { signal: AbortSignal.timeout(2_000) })
    .then((r) => (r.ok ? (r.json() as Promise<{ clusters: { name: string; monitor?: string }[] }>) : undefined))
    .catch(() => undefined);
  return body?.clusters.find((c) => c.name === cluster)?.monitor;
}

export interface HealthBody {
  summary: { state: string };
  checkedAt: string;
  replica?: { leaderSilentSince?: string };
  signals: { id: string; subject: string; state: string }[];
}

/** The cluster's health as this replica serves it (the summary view, or the whole); undefined until read (202) or unreachable. */
export async function healthOf(replica: Replica, cluster: string, view: "summary" | "whole" = "summary"): Promise<HealthBody | undefined> {
  return fetch(`${replica.url}/api/v1/clusters/${cluster}/health${view === "summary" ? "?view=summary" : ""}`, { signal: AbortSignal.timeout(2_000) })
    .then((r) => (r.status === 200 ? (r.json() as Promise<HealthBody>) : undefined))
    .catch(() => undefined);
}

/** Reads a replica's event stream; each event's data, parsed, with the time it arrived. */
function followStream(url: string, onEvent: (data: unknown, at: number) => void): () => void {
  const controller = new AbortController();
  void (async () => {
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const at = performance.now();
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n");
        try {
          if (data) onEvent(JSON.parse(data), at);
        } catch {
          // a comment, or an event of another shape
        }
      }
    }
  })().catch(() => undefined);
  return () => controller.abort();
}

/** Follows a replica's summary pushes of a cluster: each rollup state a push carried, with when it arrived. */
export function followPushes(replica: Replica, cluster: string): { states: { state: string; at: number }[]; stop: () => void } {
  const states: { state: string; at: number }[] = [];
  const stop = followStream(`${replica.url}/api/v1/clusters/${cluster}/events?view=summary`, (data, at) => {
    const state = (data as { patch?: { set?: { summary?: { state?: unknown } } } }).patch?.set?.summary?.state;
    if (typeof state === "string") states.push({ state, at });
  });
  return { states, stop };
}

/** Follows a replica's incident pushes: the ids each announced, with when it arrived. */
export function followIncidentPushes(replica: Replica): { pushes: { ids: number[]; at: number }[]; stop: () => void } {
  const pushes: { ids: number[]; at: number }[] = [];
  const stop = followStream(`${replica.url}/api/v1/incidents/events`, (data, at) => {
    const ids = (data as { ids?: unknown }).ids;
    if (Array.isArray(ids)) pushes.push({ ids: ids.filter((id): id is number => typeof id === "number"), at });
  });
  return { pushes, stop };
}

export async function waitFor<T>(ask: () => Promise<T>, done: (t: T) => boolean, ms: number, every = 100): Promise<{ value: T; ms: number } | undefined> {
  const start = performance.now();
  for (;;) {
    const value = await ask();
    if (done(value)) return { value, ms: performance.now() - start };
    if (performance.now() - start > ms) return undefined;
    await new Promise((r) => setTimeout(r, every));
  }
}
