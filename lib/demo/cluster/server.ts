import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { Conflict, DomainError, NotFound } from "@/lib/errors";
import type { DemoCluster } from "./cluster";
import { ApiFaults } from "./faults";
import { PUBLIC_PATHS, serveApiServer } from "./apiserver";
import { renderBeaconHealth, renderOpenBaoHealth, renderPluginMetrics, renderTransitKey, stampSamples } from "./render-endpoints";
import { listScenarios, setScenario } from "./scenarios";
import { sendJson, sendStatus, sendText } from "./status";
import { makeServingTls, type ServingTls } from "./tls";

// The simulator's HTTPS face on 127.0.0.1 (its own CA, see tls.ts): the Kubernetes API, kube-apiserver health and metrics,
// OpenBao's health and Transit endpoints, the KMS plugins' metrics, and a control API for scenarios.

export interface DemoServerOptions {
  cluster: DemoCluster;
  port?: number;
  /** How often a watch that asked for bookmarks gets one; a real API server: about once a minute. */
  bookmarkIntervalMs?: number;
  /** --min-request-timeout: a watch without timeoutSeconds lasts a random time between this and twice it (default 1800 s). */
  minRequestTimeoutSeconds?: number;
  /** Read-only token for Faultline; random unless given. */
  readToken?: string;
  /** Token that may also write objects and drive scenarios. */
  adminToken?: string;
  /** CA and serving certificate; made at the first start unless given. */
  tls?: ServingTls;
  /** Subresources the read-only token may not get at first (DemoServer.readForbidden). */
  readForbidden?: string[];
}

export interface DemoEndpoints {
  url: string;
  readToken: string;
  adminToken: string;
  openBaoToken: string;
  /** PEM of the CA that signed the serving certificate (https only). */
  caPem?: string;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class DemoServer {
  private server?: Server;
  private readonly openWatches = new Set<ServerResponse>();
  private readonly bookmarkers = new Set<() => void>();
  /** Fault injection: open watches stay connected but send nothing, as an upstream watch that stalls silently. */
  watchesStalled = false;
  /** Subresources the read-only token may not get ("pods/log"), as a ClusterRole without them answers. */
  readForbidden: string[];
  readonly readToken: string;
  readonly adminToken: string;
  readonly openBaoToken = `s.${randomBytes(12).toString("base64url")}`;
  /** API-level faults (throttling, blackhole, slow answers, expired resumes, reset watches). */
  readonly faults = new ApiFaults(() => this.openWatches);
  private port: number;
  private tls?: ServingTls;
  /** Every accepted TCP connection, including those still in their TLS handshake (which closeAllConnections misses). */
  private readonly sockets = new Set<Socket>();

  constructor(private readonly opts: DemoServerOptions) {
    this.readToken = opts.readToken ?? randomBytes(24).toString("base64url");
    this.adminToken = opts.adminToken ?? randomBytes(24).toString("base64url");
    this.port = opts.port ?? 0;
    this.tls = opts.tls;
    this.readForbidden = opts.readForbidden ?? [];
    opts.cluster.apiServer = this;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Hears every request the running simulator receives (tests count what a client asked, and when). */
  onRequest(listener: (req: IncomingMessage) => void): void {
    if (!this.server) throw new Error("the demo API server is not running");
    this.server.on("request", listener);
  }

  get cluster(): DemoCluster {
    return this.opts.cluster;
  }

  endpoints(): DemoEndpoints {
    return {
      url: `https://127.0.0.1:${this.port}`,
      readToken: this.readToken,
      adminToken: this.adminToken,
      openBaoToken: this.openBaoToken,
      caPem: this.tls?.caPem,
    };
  }

  async start(): Promise<DemoEndpoints> {
    // The same CA and certificate across stops and restarts, as a restarted API server keeps its own.
    this.tls ??= makeServingTls(this.cluster.model.name);
    this.server = createServer({ cert: this.tls.certPem, key: this.tls.keyPem }, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendStatus(res, 500, "InternalError", `internal error: ${(error as Error).message}`);
        else res.end();
      });
    });
    this.server.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
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
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
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

  /**
   * Sends a bookmark now on every open watch that asks for them, and returns the resourceVersion it carries: a
   * client that has read it has read every change made before this call (tests wait on it instead of on time).
   */
  bookmarkNow(): string {
    for (const send of this.bookmarkers) send();
    return this.cluster.store.resourceVersion;
  }

  /** Watch streams open now, their headers sent: a test waits for one before a fault strikes an established stream. */
  get openWatchCount(): number {
    return this.openWatches.size;
  }

  /** Stops listening and ends watches and blackholed requests; returns the server that was listening. */
  private shutDown(): Server | undefined {
    this.cluster.stop();
    for (const watch of this.openWatches) watch.destroy();
    this.openWatches.clear();
    this.bookmarkers.clear();
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
    if (path.startsWith("/demo/v1/")) {
      if (!role) return sendStatus(res, 401, "Unauthorized", "Unauthorized");
      return this.control(req, res, url, role);
    }
    const plugin = /^\/kms-plugins\/([^/]+)\/([^/]+)\/metrics$/.exec(path);
    if (plugin) {
      if (!role) return sendStatus(res, 401, "Unauthorized", "Unauthorized");
      const pluginNode = cluster.model.nodes.find((n) => n.name === plugin[1]);
      const text = pluginNode ? await renderPluginMetrics(cluster.model, pluginNode, plugin[2], now) : undefined;
      if (!text) return sendText(res, 404, "404 page not found\n");
      return sendText(res, 200, cluster.stampMetrics ? stampSamples(text, now) : text, "text/plain; version=0.0.4; charset=utf-8");
    }

    // Everything below is the kube-apiserver: API faults strike here (a blackhole and slowness before
    // authentication, throttling after it, as API Priority and Fairness runs after authentication).
    const fault = this.faults.current;
    if (fault && fault.kind !== "throttle" && (await this.faults.intercept(res, req.socket))) return;
    // Health and version are open to anyone, as the default RBAC's system:public-info-viewer allows.
    const isPublic = PUBLIC_PATHS.has(path) || /^\/kube-apiserver\/[^/]+\/(healthz|livez|readyz)$/.test(path);
    if (!role && !isPublic) return sendStatus(res, 401, "Unauthorized", "Unauthorized");
    if (fault?.kind === "throttle" && (await this.faults.intercept(res, req.socket))) return;
    return serveApiServer(req, res, url, {
      cluster,
      serverAddress: `127.0.0.1:${this.port}`,
      store: cluster.store,
      bookmarkIntervalMs: this.opts.bookmarkIntervalMs ?? 60_000,
      minRequestTimeoutSeconds: this.opts.minRequestTimeoutSeconds ?? 1800,
      canWrite: () => role === "admin",
      mayRead: (resource) => role === "admin" || !this.readForbidden.includes(resource),
      openWatches: this.openWatches,
      bookmarkers: this.bookmarkers,
      stalled: () => this.watchesStalled || this.faults.silent,
      expiresResume: (rv) => this.faults.expiresResume(rv),
      now: () => cluster.now(),
    });
  }

  private async control(req: IncomingMessage, res: ServerResponse, url: URL, role: "admin" | "read"): Promise<void> {
    const cluster = this.cluster;
    if (req.method === "GET" && url.pathname === "/demo/v1/scenarios") return sendJson(res, 200, { scenarios: listScenarios(cluster) });
    const m = /^\/demo\/v1\/scenarios\/([a-z0-9.-]+)$/.exec(url.pathname);
    if (m && (req.method === "POST" || req.method === "DELETE")) {
      if (role !== "admin") return sendJson(res, 403, { error: "this token may only read; scenarios need the admin token" });
      try {
        const node = url.searchParams.get("node") ?? undefined;
        const variant = url.searchParams.get("variant") ?? undefined;
        await setScenario(cluster, m[1], req.method === "POST", { node, variant });
        return sendJson(res, 200, { scenarios: listScenarios(cluster) });
      } catch (error) {
        // This stands in for a cluster's own control API, not Faultline's web edge: its own three statuses.
        if (error instanceof DomainError)
          return sendJson(res, error instanceof NotFound ? 404 : error instanceof Conflict ? 409 : 400, { error: error.message });
        throw error;
      }
    }
    return sendJson(res, 404, { error: `no control endpoint ${req.method} ${url.pathname}` });
  }
}
