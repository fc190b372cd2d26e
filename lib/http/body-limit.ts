import { IncomingMessage } from "node:http";
import type { BodySize } from "./read-bounded";
import type { RouteSpec } from "./route-table";

// How many body bytes each route may be sent. The edge stops reading at the limit and answers 413, so no
// route (nor Next.js) ever buffers more; routes then apply their own, smaller bounds to what they parse.

/** Routes that take a body: JSON requests of people and scripts. */
export const API_BODY_LIMIT = 1024 * 1024;

/**
 * A route's own body bound, and the refusal past it when a 413 will not do (Alertmanager gives a group up on
 * a 4xx, so its webhook answers a 503 it retries). Handed in by the route's domain (scripts/start.ts), since
 * lib/http imports no domain folder.
 */
export interface BodyRule {
  limit: number;
  overLimit?: (size: BodySize) => Error;
}

/** Route pattern -> its own body rule. */
export type BodyRules = ReadonlyMap<string, BodyRule>;

/** The body limit of a route: 0 for what only reads (pages, GET-only handlers), so any body is refused. */
export function bodyLimitOf(spec: RouteSpec | undefined, rules: BodyRules = new Map()): number {
  if (!spec || spec.kind === "page") return 0;
  const own = rules.get(spec.pattern);
  if (own) return own.limit;
  return spec.allow.some((m) => m !== "GET" && m !== "HEAD" && m !== "OPTIONS") ? API_BODY_LIMIT : 0;
}

export type BodyRead = { body: Buffer } | { tooLarge: number } | { aborted: true };

/** Reads a request body, stopping as soon as it passes `limit` bytes (the socket is paused, nothing more is kept). */
export function readBoundedBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyRead) => {
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done({ tooLarge: size });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ body: Buffer.concat(chunks, size) });
    const onAbort = () => done({ aborted: true });
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("close", onClose);
  });
}

/** A request like `req` whose body is `body`, already complete, for a handler that reads the stream itself. */
export function replayRequest(req: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  replay.headers = { ...req.headers, "content-length": String(body.length) };
  delete replay.headers["transfer-encoding"];
  replay.rawHeaders = req.rawHeaders;
  // complete before the end, or Node takes the stream's end for an aborted request and closes the socket.
  replay.complete = true;
  if (body.length) replay.push(body);
  replay.push(null);
  return replay;
}

/** Whether a request says it carries a body (a Content-Length above 0, or a Transfer-Encoding). */
export function declaresBody(req: IncomingMessage): boolean {
  return Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
}
