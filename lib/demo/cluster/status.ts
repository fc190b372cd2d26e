import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { JsonObject } from "./fields";

// Status objects shaped like the real API server's.

export function statusBody(code: number, reason: string, message: string, details?: JsonObject): JsonObject {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, ...(details ? { details } : {}), code };
}

/** The real server gzips an answer only when the client accepts it and it is larger than this. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

const acceptsGzip = (res: ServerResponse) =>
  /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*($|,))[\d.]+)?\s*($|,)/i.test(String(res.req?.headers["accept-encoding"] ?? ""));

export function sendJson(res: ServerResponse, code: number, body: unknown, contentType = "application/json"): void {
  const text = Buffer.from(JSON.stringify(body));
  if (text.length > GZIP_THRESHOLD_BYTES && acceptsGzip(res)) {
    const zipped = gzipSync(text);
    res.writeHead(code, {
      "Content-Type": contentType,
      "Content-Encoding": "gzip",
      "Content-Length": zipped.length,
      "Cache-Control": "no-cache, private",
      Vary: "Accept-Encoding",
    });
    res.end(zipped);
    return;
  }
  res.writeHead(code, { "Content-Type": contentType, "Content-Length": text.length, "Cache-Control": "no-cache, private" });
  res.end(text);
}

export function sendStatus(res: ServerResponse, code: number, reason: string, message: string, details?: JsonObject): void {
  sendJson(res, code, statusBody(code, reason, message, details));
}

export function sendText(res: ServerResponse, code: number, text: string, contentType = "text/plain; charset=utf-8"): void {
  res.writeHead(code, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text), "X-Content-Type-Options": "nosniff" });
  res.end(text);
}
