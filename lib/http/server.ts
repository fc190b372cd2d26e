import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import next from "next";
import { observeRequest } from "@/lib/metrics";
import type { BodyRules } from "./body-limit";
import { createEdge } from "./edge";
import { allowedHosts } from "./forgery";
import { machineRoutes } from "./machine-token";
import { createRouteLabeler, type RouteManifest } from "./route-label";
import { scanAppRoutes } from "./route-table";

// A thin HTTP server around Next's request handler: it exists to time every request and count it
// by route pattern and status for /metrics, which Next's own server does not expose, and to refuse what no
// route should see (a foreign Host, forged state changes, a machine route without its token, bad
// percent-encoding, unserved methods, oversized bodies: edge.ts, guard.ts).

export interface RunningServer {
  server: Server;
  close: () => Promise<void>;
}

export interface ServerOptions {
  dir: string;
  host: string;
  port: number;
  /** The routes with a body bound of their own (the Alertmanager webhook), from their domain. */
  bodies?: BodyRules;
  /** FAULTLINE_ALLOWED_HOSTS; empty: the bound address and loopback's names. */
  allowedHosts?: string[];
  /** FAULTLINE_WEBHOOK_TOKEN and FAULTLINE_METRICS_TOKEN. */
  tokens?: { webhook?: string; metrics?: string };
  /** CSP sources of the pre-rendered diagrams' <style> blocks (security-headers.ts svgStyleHashes). */
  styleHashes?: string[];
  /** Sign-in is on (FAULTLINE_AUTH proxy or oidc): the machine routes then need their token, configured or not. */
  signInOn?: boolean;
}

export async function startHttpServer(opts: ServerOptions): Promise<RunningServer> {
  const app = next({ dev: false, dir: opts.dir, hostname: opts.host, port: opts.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const manifest = JSON.parse(readFileSync(path.join(opts.dir, ".next", "routes-manifest.json"), "utf8")) as RouteManifest;
  const label = createRouteLabeler(manifest);
  const specs = new Map(scanAppRoutes(path.join(opts.dir, "app")).map((spec) => [spec.pattern, spec]));
  const security = {
    hosts: allowedHosts(opts.host, opts.port, opts.allowedHosts),
    machines: machineRoutes(opts.tokens ?? {}),
    styleHashes: opts.styleHashes,
    signInOn: () => opts.signInOn ?? false,
  };
  const edge = createEdge({ label, specs, bodies: opts.bodies, security }, handle);

  const listener = (expectsContinue: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const pathname = (req.url ?? "/").split("?")[0];
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      observeRequest(req.method ?? "GET", label(pathname), res.statusCode, seconds);
    });
    edge.onRequest(req, res, expectsContinue).catch((error: unknown) => {
      console.error(`[faultline] request ${req.method} ${pathname.slice(0, 200)} failed: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal error");
    });
  };
  const server = createServer(listener(false));
  // Expect: 100-continue is answered only once the route's limit allows the declared body.
  server.on("checkContinue", listener(true));
  server.on("connect", edge.onConnect);
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }).then(() => app.close()),
  };
}
