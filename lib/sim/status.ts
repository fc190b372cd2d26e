import type { ServerResponse } from "node:http";
import type { JsonObject } from "./fields";

// Status objects shaped like the real API server's.

export function statusBody(code: number, reason: string, message: string, details?: JsonObject): JsonObject {
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, ...(details ? { details } : {}), code };
}

export function sendJson(res: ServerResponse, code: number, body: unknown, contentType = "application/json"): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-cache, private" });
  res.end(text);
}

export function sendStatus(res: ServerResponse, code: number, reason: string, message: string, details?: JsonObject): void {
  sendJson(res, code, statusBody(code, reason, message, details));
}

export function sendText(res: ServerResponse, code: number, text: string, contentType = "text/plain; charset=utf-8"): void {
  res.writeHead(code, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text), "X-Content-Type-Options": "nosniff" });
  res.end(text);
}
