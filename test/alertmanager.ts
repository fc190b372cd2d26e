import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { NextRequest } from "next/server";
import { POST } from "@/app/api/v1/alerts/alertmanager/route";
import { onFreePort, stillRunningAfterReady } from "@/lib/free-port";
import { checkMachine } from "@/lib/http/machine-token";

// Debian's real Alertmanager in front of Faultline's real webhook route: Alertmanager delivers to a loopback
// HTTP server that hands each request to the route handler as Next would, after the edge's bearer-token check
// (lib/http/machine-token.ts) when a token is given. Used by the tests and the benchmark.

export const ALERTMANAGER_BIN = "/usr/bin/prometheus-alertmanager";

export interface Delivered {
  status: number;
  bytes: number;
  /** Alerts the route answered for (its `received`). */
  alerts: number;
  truncatedAlerts: number;
  ms: number;
  body: Record<string, unknown>;
}

/** A loopback server that calls the route handler for each delivery and keeps what it answered. */
export async function startReceiver(
  onDelivery?: (d: Delivered) => void,
  opts: { token?: string } = {},
): Promise<{ url: string; deliveries: Delivered[]; close: () => Promise<void> }> {
  const deliveries: Delivered[] = [];
  const server: Server = createServer(async (req, res) => {
    const started = performance.now();
    const auth = checkMachine({ variable: "FAULTLINE_WEBHOOK_TOKEN", token: opts.token }, req.headers.authorization);
    if (!auth.ok) {
      // As the edge answers it (lib/http/guard.ts), before any of the body is read.
      const body = { error: auth.error };
      deliveries.push({ status: 401, bytes: 0, alerts: 0, truncatedAlerts: 0, ms: performance.now() - started, body });
      res.writeHead(401, { "Content-Type": "application/json", "WWW-Authenticate": 'Bearer realm="faultline"', Connection: "close" }).end(JSON.stringify(body));
      return;
    }
    let bytes = 0;
    // Count the bytes as they pass to the route, which reads the stream itself (and stops at its bound).
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of req) {
          bytes += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      })(),
    );
    const headers = Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
    const request = new NextRequest(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: Readable.toWeb(counted) as ReadableStream,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    let response: Response;
    try {
      response = await POST(request);
    } catch (error) {
      response = Response.json({ error: (error as Error).message }, { status: 500 }); // as Next answers a throwing handler
    }
    const text = await response.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    const declared = Number(req.headers["content-length"] ?? 0);
    const delivered = {
      status: response.status,
      bytes: Math.max(bytes, declared),
      alerts: Number(body.received ?? 0),
      truncatedAlerts: Number(body.truncatedAlerts ?? 0),
      ms: performance.now() - started,
      body,
    };
    deliveries.push(delivered);
    onDelivery?.(delivered);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export interface AlertmanagerOptions {
  webhookUrl: string;
  maxAlerts?: number;
  groupWait?: string;
  groupInterval?: string;
  /** Sent as Authorization: Bearer (http_config.authorization), as FAULTLINE_WEBHOOK_TOKEN asks. */
  token?: string;
}

export interface PostableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
}

export interface RunningAlertmanager {
  url: string;
  log: () => string;
  /** POST /api/v2/alerts, as Prometheus sends them. */
  push: (alerts: PostableAlert[]) => Promise<void>;
  stop: () => Promise<void>;
}

/** Starts Alertmanager on loopback with gossip off, one route grouping by alertname and cluster to the webhook. */
export async function startAlertmanager(opts: AlertmanagerOptions): Promise<RunningAlertmanager> {
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-am-"));
  const config = [
    "route:",
    "  receiver: faultline",
    "  group_by: [alertname, cluster]",
    `  group_wait: ${opts.groupWait ?? "1s"}`,
    `  group_interval: ${opts.groupInterval ?? "2s"}`,
    "  repeat_interval: 1h",
    "receivers:",
    "  - name: faultline",
    "    webhook_configs:",
    `      - url: ${JSON.stringify(opts.webhookUrl)}`,
    "        send_resolved: true",
    ...(opts.token
      ? ["        http_config:", "          authorization:", "            type: Bearer", `            credentials: ${JSON.stringify(opts.token)}`]
      : []),
    `        max_alerts: ${opts.maxAlerts ?? 0}`,
  ].join("\n");
  await writeFile(path.join(dir, "alertmanager.yml"), config);
  return onFreePort((port) => launchAlertmanager(dir, port));
}

/** One start on `port`; Alertmanager exiting (on a taken port, say) throws with its log. */
async function launchAlertmanager(dir: string, port: number): Promise<RunningAlertmanager> {
  const args = [
    `--config.file=${path.join(dir, "alertmanager.yml")}`,
    `--storage.path=${dir}`,
    `--web.listen-address=127.0.0.1:${port}`,
    "--cluster.listen-address=",
    "--log.level=debug",
  ];
  const child: ChildProcess = spawn(ALERTMANAGER_BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await new Promise((r) => setTimeout(r, 50)); // the last of its output
      throw new Error(`alertmanager exited ${child.exitCode}: ${log}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready && (await stillRunningAfterReady(() => child.exitCode !== null))) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`alertmanager not ready: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    log: () => log,
    push: async (alerts) => {
      const response = await fetch(`${url}/api/v2/alerts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(alerts) });
      if (!response.ok) throw new Error(`alertmanager refused the alerts: ${response.status} ${await response.text()}`);
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds, polling; throws with `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `n` alerts of one group (alertname, cluster), each on its own instance, with a label padded to `pad` characters.
 * Firing ones end in an hour, as Prometheus sets endsAt; without it Alertmanager resolves them after resolve_timeout (5m).
 */
export function group(
  n: number,
  opts: { alertname: string; cluster: string; startsAt: string; pad?: number; offset?: number; endsAt?: string },
): PostableAlert[] {
  const padding = "p".repeat(opts.pad ?? 0);
  return Array.from({ length: n }, (_, i) => ({
    labels: {
      alertname: opts.alertname,
      cluster: opts.cluster,
      severity: "warning",
      instance: `node-${(opts.offset ?? 0) + i}:9100`,
      ...(opts.pad ? { padding } : {}),
    },
    annotations: { summary: `disk filling on node-${(opts.offset ?? 0) + i}` },
    startsAt: opts.startsAt,
    endsAt: opts.endsAt ?? new Date(Date.now() + 3_600_000).toISOString(),
  }));
}
