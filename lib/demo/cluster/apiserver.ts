import type { IncomingMessage, ServerResponse } from "node:http";
import type { DemoCluster } from "./cluster";
import { openApiV2, serveDiscovery } from "./discovery";
import { matchResourcePath, serveResource, type KubeApiOptions } from "./kube-api";
import { POD_LOG_PATH, servePodLog } from "./pod-log";
import { renderApiserverMetrics, renderKmsProviders, renderReadyz, stampSamples } from "./render-endpoints";
import { sendJson, sendStatus, sendText } from "./status";

// The kube-apiserver's own paths: health (/healthz, /livez, /readyz and their KMS checks, per
// instance under /kube-apiserver/<node>/), metrics, version, discovery, OpenAPI and the resources.

/** Non-resource URLs the default RBAC lets anyone read (system:public-info-viewer). */
export const PUBLIC_PATHS = new Set(["/healthz", "/livez", "/readyz", "/version", "/version/"]);

const LIVEZ_CHECKS = [
  "ping",
  "log",
  "etcd",
  "poststarthook/start-apiextensions-informers",
  "poststarthook/start-apiextensions-controllers",
  "poststarthook/crd-informer-synced",
  "poststarthook/generic-apiserver-start-informers",
  "poststarthook/bootstrap-controller",
];

export interface ApiServerOptions extends KubeApiOptions {
  cluster: DemoCluster;
  serverAddress: string;
  /** Whether this caller may read a subresource ("pods/log"): the read-only token's RBAC, which a test can narrow. */
  mayRead?: (resource: string) => boolean;
}

/** RBAC's answer to a get it does not allow. */
function sendForbiddenLog(res: ServerResponse, match: RegExpExecArray): void {
  const [namespace, name] = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
  sendStatus(
    res,
    403,
    "Forbidden",
    `pods "${name}" is forbidden: User "system:serviceaccount:faultline:faultline-readonly" cannot get resource "pods/log" in API group "" in the namespace "${namespace}"`,
    { name, kind: "pods" },
  );
}

export async function serveApiServer(req: IncomingMessage, res: ServerResponse, url: URL, opts: ApiServerOptions): Promise<void> {
  const { cluster } = opts;
  const path = url.pathname;
  const now = cluster.now();
  const instance = /^\/kube-apiserver\/([^/]+)(\/.*)$/.exec(path);
  const nodeName = instance?.[1] ?? cluster.model.nodes[0].name;
  const subPath = instance?.[2] ?? path;
  const node = cluster.model.nodes.find((n) => n.name === nodeName);
  if (instance && !node) return sendStatus(res, 404, "NotFound", `no kube-apiserver on node "${nodeName}"`);
  if (subPath === "/healthz/kms-providers" || subPath === "/readyz/kms-providers") {
    const r = renderKmsProviders(cluster.model, node!, cluster.tick);
    return sendText(res, r.status, r.body);
  }
  if (subPath === "/livez/kms-providers") return sendText(res, 404, "404 page not found\n");
  if (subPath === "/readyz" || subPath === "/healthz") {
    const r = renderReadyz(cluster.model, node!, cluster.tick, url.searchParams.has("verbose"), subPath === "/readyz" ? "readyz" : "healthz");
    return sendText(res, r.status, r.body);
  }
  // Liveness does not include KMS: a failing plugin makes the server unready, never restarted.
  if (subPath === "/livez")
    return sendText(res, 200, url.searchParams.has("verbose") ? `${LIVEZ_CHECKS.map((c) => `[+]${c} ok`).join("\n")}\nlivez check passed\n` : "ok");
  if (subPath === "/metrics") {
    const text = await renderApiserverMetrics(cluster.model, node!, now);
    return sendText(res, 200, cluster.stampMetrics ? stampSamples(text, now) : text, "text/plain; version=0.0.4; charset=utf-8");
  }
  if (instance) return sendText(res, 404, "404 page not found\n");
  if (path === "/openapi/v2") {
    const body = openApiV2();
    res.writeHead(200, { "Content-Type": "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "Content-Length": body.length });
    return void res.end(body);
  }
  if (path === "/openapi/v3") return sendJson(res, 200, { paths: {} });
  if (serveDiscovery(path, res, opts.serverAddress)) return;
  const podLog = POD_LOG_PATH.exec(path);
  if (podLog) {
    const refused = opts.mayRead?.("pods/log");
    if (refused === false) return sendForbiddenLog(res, podLog);
    return servePodLog(req, res, url, podLog, cluster);
  }
  const route = matchResourcePath(path);
  if (route) return serveResource(route, req, res, url, opts);
  if (path.startsWith("/api/") || path.startsWith("/apis/")) return sendStatus(res, 404, "NotFound", "the server could not find the requested resource");
  sendText(res, 404, "404 page not found\n");
}
