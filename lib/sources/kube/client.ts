import "server-only";
import http from "node:http";
import https from "node:https";
import { createSecureContext } from "node:tls";
import * as k8s from "@kubernetes/client-node";
import type { ClusterConfig } from "@/lib/clusters/config";
import { KubeHttpError, parseRetryAfter } from "./http-error";

export { KubeHttpError } from "./http-error";

// The Kubernetes side of one watched cluster, behind one adapter: the kubeconfig (for watches) plus
// GETs of resource lists and of the API server's own health endpoints. Credentials come from the
// kubeconfig; Faultline only reads.

export interface KubeAccess {
  config: k8s.KubeConfig;
  server: string;
}

export function connect(cluster: Pick<ClusterConfig, "kubeconfig" | "context" | "inCluster">): KubeAccess {
  const config = new k8s.KubeConfig();
  if (cluster.inCluster) config.loadFromCluster();
  else config.loadFromFile(cluster.kubeconfig!);
  if (cluster.context) config.setCurrentContext(cluster.context);
  const server = config.getCurrentCluster()?.server;
  if (!server) throw new Error(`kubeconfig ${cluster.kubeconfig ?? "(in-cluster)"} has no current cluster`);
  return { config, server };
}

/**
 * GET a non-resource path (/readyz?verbose, /healthz/kms-providers): status and body text (first MiB).
 * Any status is an answer (a 503 from /readyz is the observation), except throttling, which is thrown.
 */
export async function getRaw(access: KubeAccess, path: string, timeoutMs = 5000): Promise<{ status: number; body: string }> {
  const { status, body, headers } = await get(access, path, timeoutMs, 1024 * 1024, "truncate");
  const text = body.toString("utf8");
  const error = httpError(`GET ${path}`, status, text, headers);
  if (error.throttled) throw error;
  return { status, body: text };
}

/** GET a resource path as JSON (a LIST of 5,000 nodes is several MB, so the cap is generous). */
export async function getResource(access: KubeAccess, path: string, timeoutMs = 30_000, maxBytes = 256 * 1024 * 1024): Promise<unknown> {
  const { status, body, headers } = await get(access, path, timeoutMs, maxBytes, "fail");
  const text = body.toString("utf8");
  if (status < 200 || status >= 300) throw httpError(`GET ${path}`, status, text, headers);
  try {
    return JSON.parse(text);
  } catch {
    throw new KubeHttpError(status, `GET ${path}: the answer is not JSON (${text.slice(0, 120)})`);
  }
}

/**
 * GET a path whose answer is text (a pod's log): at most `maxBytes` are read, the rest is dropped with the
 * connection. A non-2xx answer is thrown with the Status message the server gave.
 */
export async function getText(access: KubeAccess, path: string, timeoutMs: number, maxBytes: number): Promise<{ text: string; bytes: number; cut: boolean }> {
  const { status, body, headers, cut } = await get(access, path, timeoutMs, maxBytes, "truncate");
  const text = body.toString("utf8");
  if (status < 200 || status >= 300) throw httpError(`GET ${path}`, status, text, headers);
  return { text, bytes: body.length, cut };
}

/** The error for a non-2xx answer, with the Status message and any Retry-After the server gave. */
export function httpError(what: string, status: number, text: string, headers: http.IncomingHttpHeaders): KubeHttpError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const message = (parsed as { message?: unknown } | undefined)?.message;
  const said = typeof message === "string" ? message.slice(0, 300) : text.slice(0, 120);
  return new KubeHttpError(status, `${what}: ${status} ${said}`, parseRetryAfter(headers["retry-after"], parsed));
}

/**
 * The agent of a cluster's connection: keep-alive, with its TLS context (CA, client certificate) made once. The one
 * client-node hands out keeps no connection alive, so every GET of every poll and every watch's LIST was a new TLS
 * handshake with a new context: most of the monitor's CPU at 100 clusters (--cpu-prof). A proxy keeps client-node's.
 */
const agents = new WeakMap<KubeAccess, https.Agent>();

/** The request options of a GET or WATCH: the kubeconfig's credentials, and the cluster's agent. */
export async function requestOptions(access: KubeAccess, base: https.RequestOptions): Promise<https.RequestOptions> {
  const options: https.RequestOptions = { ...base };
  await access.config.applyToHTTPSOptions(options);
  if (!access.server.startsWith("https:") || access.config.getCurrentCluster()?.proxyUrl) return options;
  let agent = agents.get(access);
  if (!agent) {
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = options;
    agent = new https.Agent({
      keepAlive: true,
      secureContext: createSecureContext({ ca, cert, key, pfx, passphrase }),
      ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }),
      ...(servername ? { servername } : {}),
    });
    agents.set(access, agent);
  }
  return { ...options, agent };
}

async function get(
  access: KubeAccess,
  path: string,
  timeoutMs: number,
  maxBytes: number,
  overflow: "truncate" | "fail",
): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders; cut: boolean }> {
  const url = new URL(path, access.server);
  const options = await requestOptions(access, { method: "GET", headers: { Accept: "application/json" }, timeout: timeoutMs });
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = lib.request(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (cut: boolean) =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, maxBytes), headers: response.headers, cut });
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) return void chunks.push(chunk);
        if (overflow === "fail") return void request.destroy(new Error(`GET ${path}: the answer is larger than ${maxBytes} bytes`));
        // Enough read: keep the part that fits and stop the transfer.
        chunks.push(chunk);
        response.removeAllListeners("data");
        response.removeAllListeners("end");
        response.destroy();
        done(true);
      });
      response.on("end", () => done(false));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${path}: timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end();
  });
}
