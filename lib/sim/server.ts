import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimCluster } from "./cluster";
import { ApiFaults } from "./faults";
import { matchResourcePath, serveDiscovery, serveResource } from "./kube-api";
import { renderApiserverMetrics, renderBeaconHealth, renderKmsProviders, renderOpenBaoHealth, renderPluginMetrics, renderReadyz, renderTransitKey } from "./render-endpoints";
import { listScenarios, ScenarioError, setScenario } from "./scenarios";
import { sendJson, sendStatus, sendText } from "./status";

// The simulator's HTTP face on 127.0.0.1: the Kubernetes API, kube-apiserver health and metrics,
// OpenBao's health and Transit endpoints, the KMS plugins' metrics, and a control API for scenarios.

export interface SimServerOptions {
  cluster: SimCluster;
  port?: number;
  bookmarkIntervalMs?: number;
  /** Read-only token for Faultline; random unless given. */
  readToken?: string;
  /** Token that may also write objects and drive scenarios. */
  adminToken?: string;
}

export interface SimEndpoints {
  url: string;
  readToken: string;
  adminToken: string;
  openBaoToken: string;
  /** PEM of the CA that signed the serving certificate (https only). */
  caPem?: string;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class SimServer {
  private server?: Server;
  private readonly openWatches = new Set<ServerResponse>();
  /** Fault injection: open watches stay connected but send nothing, as an upstream watch that stalls silently. */
  watchesStalled = false;
  readonly readToken: string;
  readonly adminToken: string;
  readonly openBaoToken = `s.${randomBytes(12).toString("base64url")}`;
  /** API-level faults (throttling, blackhole, slow answers, expired resumes, reset watches). */
  readonly faults = new ApiFaults(() => this.openWatches);
  private port: number;

  constructor(private readonly opts: SimServerOptions) {
    this.readToken = opts.readToken ?? randomBytes(24).toString("base64url");
    this.adminToken = opts.adminToken ?? randomBytes(24).toString("base64url");
    this.port = opts.port ?? 0;
    opts.cluster.apiServer = this;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  get cluster(): SimCluster {
    return this.opts.cluster;
  }

  endpoints(): SimEndpoints {
    return { url: `http://127.0.0.1:${this.port}`, readToken: this.readToken, adminToken: this.adminToken, openBaoToken: this.openBaoToken };
  }

  async start(): Promise<SimEndpoints> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendStatus(res, 500, "InternalError", `internal error: ${(error as Error).message}`);
        else res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.cluster.start();
    return this.endpoints();
  }

  async stop(): Promise<void> {
    const server = this.shutDown();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * As an API server restart: every watch drops, and the server comes back on the same port with a new
   * resourceVersion history (objects survive; any resourceVersion handed out before answers 410 on
   * resume). Like the real server's graceful shutdown, requests in flight (the control request that
   * asked for the restart among them) are answered; idle connections are closed.
   */
  async restart(): Promise<void> {
    const server = this.shutDown();
    if (server) {
      server.close();
      server.closeIdleConnections();
    }
    this.cluster.store.newHistory();
    await this.start();
  }

  /** Stops listening and ends watches and blackholed requests; returns the server that was listening. */
  private shutDown(): Server | undefined {
    this.cluster.stop();
    for (const watch of this.openWatches) watch.destroy();
    this.openWatches.clear();
    this.faults.dropHeld();
    const server = this.server;
    this.server = undefined;
    return server;
  }

  private role(req: IncomingMessage): "admin" | "read" | undefined {
    const header = req.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
    if (token && same(token, this.adminToken)) return "admin";
    if (token && same(token, this.readToken)) return "read";
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    const cluster = this.cluster;
    const now = cluster.now();

    // OpenBao answers with its own auth: health is open, Transit needs X-Vault-Token.
    if (path === "/v1/sys/health") {
      const health = renderOpenBaoHealth(cluster.model, now);
      if (health === "unreachable") return void req.socket.destroy();
      if (req.method === "HEAD") return void res.writeHead(health.status).end();
      return sendJson(res, health.status, health.body);
    }
    if (path.startsWith("/v1/transit/keys/")) {
      if (cluster.model.openbao.state === "unreachable") return void req.socket.destroy();
      if (cluster.model.openbao.state === "sealed") return sendJson(res, 503, { errors: ["Vault is sealed"] });
      const token = String(req.headers["x-vault-token"] ?? "");
      if (!token || !same(token, this.openBaoToken)) return sendJson(res, 403, { errors: ["permission denied"] });
      const name = decodeURIComponent(path.slice("/v1/transit/keys/".length));
      if (name !== cluster.model.transit.name) return sendJson(res, 404, { errors: [] });
      const key = renderTransitKey(cluster.model, now);
      return sendJson(res, key.status, key.body);
    }

    // The beacon relay's health, as the bridge sees it.
    if (path === "/beacon/healthz") {
      const beacon = renderBeaconHealth(cluster.model);
      return sendText(res, beacon.status, beacon.body);
    }

    const role = this.role(req);
    if (path.startsWith("/sim/v1/")) {
      if (!role) return sendStatus(res, 401, "Unauthorized", "Unauthorized");
      return this.control(req, res, url, role);
    }
    const plugin = /^\/kms-plugins\/([^/]+)\/([^/]+)\/metrics$/.exec(path);
    if (plugin) {
      if (!role) return sendStatus(res, 401, "Unauthorized", "Unauthorized");
      const pluginNode = cluster.model.nodes.find((n) => n.name === plugin[1]);
      const text = pluginNode ? await renderPluginMetrics(cluster.model, pluginNode, plugin[2], now) : undefined;
      if (!text) return sendText(res, 404, "404 page not found\n");
      return sendText(res, 200, text, "text/plain; version=0.0.4; charset=utf-8");
    }

    // Everything below is the kube-apiserver: API faults strike here (a blackhole and slowness before
    // authentication, throttling after it, as API Priority and Fairness runs after authentication).
    const fault = this.faults.current;
    if (fault && fault.kind !== "throttle" && (await this.faults.intercept(res, req.socket))) return;
    if (!role) return sendStatus(res, 401, "Unauthorized", "Unauthorized");
    if (fault?.kind === "throttle" && (await this.faults.intercept(res, req.socket))) return;
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
    if (subPath === "/metrics") return sendText(res, 200, await renderApiserverMetrics(cluster.model, node!, now), "text/plain; version=0.0.4; charset=utf-8");
    if (path === "/version") return sendJson(res, 200, { major: "1", minor: "35", gitVersion: "v1.35.3", platform: "linux/amd64" });
    if (serveDiscovery(path, res, `127.0.0.1:${this.port}`)) return;
    const route = matchResourcePath(path);
    if (route && route !== "discovery") {
      return serveResource(route, req, res, url, {
        store: cluster.store,
        bookmarkIntervalMs: this.opts.bookmarkIntervalMs ?? 60_000,
        canWrite: () => role === "admin",
        serverAddress: () => `127.0.0.1:${this.port}`,
        openWatches: this.openWatches,
        stalled: () => this.watchesStalled || this.faults.silent,
        expiresResume: (rv) => this.faults.expiresResume(rv),
      });
    }
    sendStatus(res, 404, "NotFound", "the server could not find the requested resource");
  }

  private async control(req: IncomingMessage, res: ServerResponse, url: URL, role: "admin" | "read"): Promise<void> {
    const cluster = this.cluster;
    if (req.method === "GET" && url.pathname === "/sim/v1/scenarios") return sendJson(res, 200, { scenarios: listScenarios(cluster) });
    const m = /^\/sim\/v1\/scenarios\/([a-z0-9.-]+)$/.exec(url.pathname);
    if (m && (req.method === "POST" || req.method === "DELETE")) {
      if (role !== "admin") return sendJson(res, 403, { error: "this token may only read; scenarios need the admin token" });
      try {
        const node = url.searchParams.get("node") ?? undefined;
        const variant = url.searchParams.get("variant") ?? undefined;
        await setScenario(cluster, m[1], req.method === "POST", { node, variant });
        return sendJson(res, 200, { scenarios: listScenarios(cluster) });
      } catch (error) {
        if (error instanceof ScenarioError) return sendJson(res, error.status, { error: error.message });
        throw error;
      }
    }
    return sendJson(res, 404, { error: `no control endpoint ${req.method} ${url.pathname}` });
  }
}
