import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import next from "next";
import { observeRequest } from "@/lib/metrics";
import { createRouteLabeler, type RouteManifest } from "./route-label";

// A thin HTTP server around Next's request handler: it exists to time every request and count it
// by route pattern and status for /metrics, which Next's own server does not expose.

export interface RunningServer {
  server: Server;
  close: () => Promise<void>;
}

export async function startHttpServer(opts: { dir: string; host: string; port: number }): Promise<RunningServer> {
  const app = next({ dev: false, dir: opts.dir, hostname: opts.host, port: opts.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const manifest = JSON.parse(readFileSync(path.join(opts.dir, ".next", "routes-manifest.json"), "utf8")) as RouteManifest;
  const label = createRouteLabeler(manifest);

  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    const pathname = (req.url ?? "/").split("?")[0];
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      observeRequest(req.method ?? "GET", label(pathname), res.statusCode, seconds);
    });
    handle(req, res).catch((error: unknown) => {
      console.error(`[faultline] request ${req.method} ${pathname} failed: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal error");
    });
  });
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
