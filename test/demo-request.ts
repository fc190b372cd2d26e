import http from "node:http";
import https from "node:https";
import type { DemoEndpoints } from "@/lib/demo/cluster/server";

// A plain HTTP(S) request to a simulated cluster for tests: the raw status, headers and body, with the
// cluster's CA trusted, so what a test asserts is what any client would receive on the wire.

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Give up (and reject with "no answer") after this long. */
  timeoutMs?: number;
}

export function rawRequest(endpoints: DemoEndpoints, path: string, opts: RawRequest = {}): Promise<RawResponse> {
  const url = new URL(path, endpoints.url);
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: opts.method ?? "GET",
        headers: { ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}), ...(opts.headers ?? {}) },
        ...(endpoints.caPem ? { ca: endpoints.caPem } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    if (opts.timeoutMs) req.setTimeout(opts.timeoutMs, () => req.destroy(new Error("no answer")));
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** Opens a streaming GET (a watch) and hands each line over as it arrives. */
export function openStream(endpoints: DemoEndpoints, path: string, token: string, onLine: (line: string) => void) {
  const url = new URL(path, endpoints.url);
  const lib = url.protocol === "https:" ? https : http;
  let status = 0;
  let abort = (): void => undefined;
  const ended = new Promise<{ error?: NodeJS.ErrnoException }>((resolve) => {
    const req = lib.request(
      url,
      { headers: { Authorization: `Bearer ${token}` }, ...(endpoints.caPem ? { ca: endpoints.caPem } : {}), agent: false },
      (res) => {
        status = res.statusCode ?? 0;
        let buffer = "";
        res.on("data", (chunk: Buffer) => {
          buffer += chunk.toString("utf8");
          let nl;
          while ((nl = buffer.indexOf("\n")) >= 0) {
            onLine(buffer.slice(0, nl));
            buffer = buffer.slice(nl + 1);
          }
        });
        res.on("end", () => resolve({}));
        res.on("error", (error: NodeJS.ErrnoException) => resolve({ error }));
        res.on("aborted", () => resolve({ error: Object.assign(new Error("aborted"), { code: "ECONNRESET" }) }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error }));
    abort = () => req.destroy();
    req.end();
  });
  // The executor ran at once: `abort` already ends this request.
  return { ended, status: () => status, abort: () => abort() };
}
