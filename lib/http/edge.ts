import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { claimedBy, noteRefusal, ROUTE_HEADER } from "@/lib/auth/refusals";
import { bodyLimitOf, declaresBody, readBoundedBody, replayRequest, type BodyRules } from "./body-limit";
import { errorReply } from "./error-reply";
import { guard, type EdgeSecurity } from "./guard";
import { hotHeaders, hotReadOf } from "./hot-reads";
import { nextHeaderProblem } from "./next-headers";
import { percentEncodingProblem } from "./percent";
import type { RouteSpec } from "./route-table";
import { applySecurityHeaders } from "./security-headers";

// The checks every request passes before Next.js sees it: a Host the server answers to, no forged state change,
// a machine route's token (guard.ts), a path that decodes, a method the route serves, a body within the route's
// limit. What fails gets a 4xx naming the problem ({ error } under /api/, plain text elsewhere); the body is
// never echoed back. Every response, refusals included, carries the security headers (security-headers.ts). Every
// refusal is noted for the audit log after it is answered, in memory (lib/auth/refusals.ts): no database call here.

export type Handle = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export type Decision =
  | { pass: true; limit: number }
  | {
      pass: false;
      status: number;
      error: string;
      /** Which check refused it, for the audit log (its action is edge.<reason>). */
      reason: string;
      allow?: string[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    };

const ASSETS: RouteSpec = { pattern: "/_next", kind: "page", allow: ["GET", "HEAD", "OPTIONS"] };
/**
 * After an early answer the rest of the body is read and dropped for this long, as nginx's lingering close does:
 * closing at once would reset the connection before most clients read the answer. Then the socket is closed.
 */
const LINGER_MS = 2_000;

export interface EdgeRoutes {
  /** The route pattern a path matches (see route-label.ts), "unmatched" for none. */
  label: (pathname: string) => string;
  specs: Map<string, RouteSpec>;
  /** Routes with a body bound of their own (see body-limit.ts). */
  bodies?: BodyRules;
  /** Host, forgery and machine-token rules and the security headers; the server always sets them. */
  security?: EdgeSecurity;
}

/** What to do with a request, from its method, target and declared length alone. */
export function decide(method: string, target: string, contentLength: number | undefined, routes: EdgeRoutes): Decision {
  if (!target.startsWith("/")) return { pass: false, status: 400, error: "the request target must be a path starting with /", reason: "path" };
  const problem = percentEncodingProblem(target);
  if (problem) return { pass: false, status: 400, error: problem, reason: "path" };
  const pathname = target.split(/[?#]/)[0];
  const pattern = routes.label(pathname);
  const spec = pattern.startsWith("/_next/") ? ASSETS : routes.specs.get(pattern);
  if (!spec) {
    // Next answers GET with its not-found page; nothing else is served at a path no route has.
    if (method === "GET" || method === "HEAD") return contentLength ? tooLarge(routes, 0, method, pattern) : { pass: true, limit: 0 };
    return { pass: false, status: 404, error: `no route at ${pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname}`, reason: "no-route" };
  }
  if (method === "OPTIONS") return { pass: false, status: 204, error: "", reason: "preflight", allow: spec.allow };
  if (!spec.allow.includes(method)) {
    const error = `method ${method} is not allowed on ${spec.pattern}; allowed: ${spec.allow.join(", ")}`;
    return { pass: false, status: 405, error, reason: "method", allow: spec.allow };
  }
  const limit = bodyLimitOf(spec, routes.bodies);
  if (contentLength !== undefined && contentLength > limit) return tooLarge(routes, limit, method, spec.pattern, { bytes: contentLength, declared: true });
  return { pass: true, limit };
}

type Refusal = Extract<Decision, { pass: false }>;

function tooLarge(routes: EdgeRoutes, limit: number, method: string, pattern: string, size = { bytes: limit + 1, declared: false }): Refusal {
  // A route's own refusal past its bound (the webhook's 503, which Alertmanager retries) is answered as the route would.
  const own = routes.bodies?.get(pattern)?.overLimit?.(size);
  const reply = own && errorReply(own);
  if (reply) {
    const { error, ...extra } = reply.body;
    return { pass: false, status: reply.status, error, reason: "body-too-large", headers: reply.headers, extra };
  }
  const error = limit === 0 ? `${method} ${pattern} takes no request body` : `request body larger than ${limit} bytes, the limit of ${method} ${pattern}`;
  return { pass: false, status: 413, error, reason: "body-too-large" };
}

/** The request listener: checks, then hands the request to `handle` (Next's request handler). */
export function createEdge(routes: EdgeRoutes, handle: Handle) {
  const onRequest = async (req: IncomingMessage, res: ServerResponse, expectsContinue = false) => {
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
    const { security } = routes;
    if (security) applySecurityHeaders(req, res, security.styleHashes);
    const pattern = routes.label(target.split(/[?#]/)[0]);
    stampRoute(req, method, pattern);
    const header = nextHeaderProblem(req.headers);
    const tls = "encrypted" in req.socket && Boolean(req.socket.encrypted);
    const refused = security && guard(method, pattern, req.headers, tls, security);
    const decision: Decision = header
      ? { pass: false, status: 400, error: header, reason: "header" }
      : refused
        ? { pass: false, ...refused }
        : decide(method, target, declared, routes);
    if (!decision.pass) return reply(req, res, decision, pattern);
    if (!declaresBody(req)) {
      if (method === "GET" && (await answerHot(req, res, pattern, target))) return;
      return handle(req, res);
    }
    if (expectsContinue) res.writeContinue();
    const read = await readBoundedBody(req, decision.limit);
    if ("aborted" in read) return void res.destroy();
    if ("tooLarge" in read) return reply(req, res, tooLarge(routes, decision.limit, method, pattern, { bytes: read.tooLarge, declared: false }), pattern);
    return handle(replayRequest(req, read.body), res);
  };

  const onConnect = (req: IncomingMessage, socket: Duplex) => {
    const decision = decide("CONNECT", req.url ?? "", undefined, routes) as Refusal;
    noteEdgeRefusal(req, routes.label((req.url ?? "").split(/[?#]/)[0]), decision);
    const body = JSON.stringify({ error: decision.error });
    const head = [
      `HTTP/1.1 ${decision.status} ${STATUS_CODES[decision.status]}`,
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      // Written on the socket, past the response object: the security headers by hand (nothing here runs a script).
      "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
      "X-Frame-Options: DENY",
      "X-Content-Type-Options: nosniff",
      "Referrer-Policy: same-origin",
    ];
    if (decision.allow) head.push(`Allow: ${decision.allow.join(", ")}`);
    socket.on("error", () => socket.destroy());
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  };

  return { onRequest, onConnect };
}

/** A GET the domain answers from text it wrote once (hot-reads.ts): true when it was answered here. */
async function answerHot(req: IncomingMessage, res: ServerResponse, pattern: string, target: string): Promise<boolean> {
  const read = hotReadOf(pattern);
  if (!read) return false;
  const body = await read(new URL(target, "http://faultline.invalid"), hotHeaders(req.headers)).catch(() => undefined);
  if (body === undefined) return false;
  res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store", "Content-Length": String(Buffer.byteLength(body)) }).end(body);
  return true;
}

function reply(req: IncomingMessage, res: ServerResponse, decision: Refusal, pattern: string): void {
  const api = (req.url ?? "").startsWith("/api/");
  const unread = declaresBody(req) && !req.complete;
  const headers: Record<string, string> = { "Cache-Control": "no-store", ...decision.headers };
  if (decision.allow) headers.Allow = decision.allow.join(", ");
  if (decision.status === 204) {
    res.writeHead(204, headers).end();
  } else {
    const body = api ? JSON.stringify({ error: decision.error, ...decision.extra }) : `${decision.error}\n`;
    headers["Content-Type"] = api ? "application/json" : "text/plain; charset=utf-8";
    headers["Content-Length"] = String(Buffer.byteLength(body));
    res.writeHead(decision.status, headers).end(req.method === "HEAD" ? undefined : body);
  }
  if (unread) linger(req);
  if (decision.status >= 400) noteEdgeRefusal(req, pattern, decision);
}

/** The route pattern a request was checked as, for the page it reaches (lib/auth/page.ts); a client's value is replaced. */
function stampRoute(req: IncomingMessage, method: string, pattern: string): void {
  req.headers[ROUTE_HEADER] = `${method} ${pattern}`;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === ROUTE_HEADER) raw.splice(i, 2);
  raw.push(ROUTE_HEADER, req.headers[ROUTE_HEADER]);
}

/** A refusal for the audit log, under whom the request claims to be; noting it can never undo the answer. */
function noteEdgeRefusal(req: IncomingMessage, route: string, decision: Refusal): void {
  try {
    const remote = req.socket.remoteAddress;
    const headers = { get: (name: string) => [req.headers[name.toLowerCase()] ?? []].flat().join(", ") || null };
    noteRefusal({
      ...claimedBy(headers, remote),
      method: req.method ?? "GET",
      route,
      action: `edge.${decision.reason}`,
      remote,
      status: decision.status,
      reason: decision.reason,
      detail: decision.error,
    });
  } catch (error) {
    console.error(`[faultline] a refusal (${decision.status}) was answered but not noted for the audit log: ${(error as Error).message}`);
  }
}

/**
 * Reads and drops what the client still sends, for at most LINGER_MS, so it sees the answer; no
 * "Connection: close", or Node would close the socket as soon as the answer is written.
 */
function linger(req: IncomingMessage): void {
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.on("data", () => {});
  req.on("end", () => clearTimeout(timer));
  req.on("error", () => clearTimeout(timer));
  req.resume();
}
