import { NextResponse } from "next/server";
import type { z } from "zod";
import { checkAccess, guard } from "@/lib/auth/gate";
import type { Principal } from "@/lib/auth/identify";
import type { Need } from "@/lib/auth/roles";
import { fieldErrors, Invalid, type FieldErrors } from "@/lib/errors";
import type { BodyRule } from "./body-limit";
import { errorReply } from "./error-reply";
import { registerHotRead } from "./hot-reads";
import { BODY_LIMIT, readJson, readRawJson } from "./read-json";

// The one web edge of the route handlers: each handler declares what it takes (params, query, headers, body:
// zod schemas), the ONE domain call it makes, and how its result is answered. Parsing, the bounded body
// reader and the mapping of refusals to { error, fields? } with their status happen here, and only here.

export interface Input<P, Q, H, B> {
  params: P;
  query: Q;
  headers: H;
  body: B;
  /** The signed-in person (undefined on public and machine routes): the actor of what the route does. */
  who: Principal | undefined;
}

export interface ReplyInit {
  status?: number;
  headers?: Record<string, string>;
}

export interface Endpoint<P, Q, H, B, R> {
  /** Who may call it (lib/auth/roles.ts), checked before anything else is read. */
  role: Need;
  /** What a state-changing call does, for the audit log (incident.acknowledge). */
  action?: string;
  /** The object it acts on, named by one of its params: { type: "incident", param: "id" }. */
  object?: { type: string; param: string };
  /** The route's dynamic segments, as an object ({ id: "12" }). */
  params?: z.ZodType<P>;
  /** The search parameters as an object (a repeated one keeps its last value)... */
  query?: z.ZodType<Q>;
  /** ...or the URLSearchParams themselves, for a schema that reads every value or the first. */
  search?: z.ZodType<Q>;
  /** Request headers: the schema's keys name them, and name the fields of its errors. */
  headers?: z.ZodObject & z.ZodType<H>;
  /** A JSON body, read under `bodyLimit` (BODY_LIMIT), depth-bounded and cleaned (read-json.ts)... */
  body?: z.ZodType<B>;
  bodyLimit?: number;
  /** ...or JSON exactly as sent, under the route's own bound and refusal (the Alertmanager webhook). */
  rawBody?: BodyRule;
  /** The one domain call. */
  run: (input: Input<P, Q, H, B>) => R | Promise<R>;
  /** JSON of the result (200, or this status and headers), or a response of its own. */
  reply?: ReplyInit | ((result: R) => Response);
}

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type Handler = (request: Request, context?: RouteContext) => Promise<Response>;

const handlers = new WeakSet<Handler>();

/** Whether `fn` is a handler built by route() (a test holds every route file to it). */
export function isEdgeHandler(fn: unknown): boolean {
  return typeof fn === "function" && handlers.has(fn as Handler);
}

/** A route handler (export const GET = route({ ... })). */
export function route<P = undefined, Q = undefined, H = undefined, B = undefined, R = unknown>(endpoint: Endpoint<P, Q, H, B, R>): Handler {
  const handler: Handler = async (request, context) => {
    const raw = ((await context?.params) ?? {}) as Record<string, string | string[] | undefined>;
    const pathname = new URL(request.url).pathname;
    const objectId = endpoint.object && raw[endpoint.object.param];
    const guarded = {
      need: endpoint.role,
      method: request.method,
      route: patternOf(pathname, raw),
      action: endpoint.action,
      object: endpoint.object && typeof objectId === "string" ? { type: endpoint.object.type, id: objectId } : undefined,
    };
    return guard(request, guarded, async (who) => {
      try {
        const input = await parseInput(request, context, endpoint, who);
        const result = await endpoint.run(input);
        const { reply } = endpoint;
        return typeof reply === "function" ? reply(result) : NextResponse.json(result, reply);
      } catch (error) {
        return errorResponse(error);
      }
    });
  };
  handlers.add(handler);
  return handler;
}

/** A handler that answers by itself (an event stream), behind the same role check as route(). */
export function guarded(role: Need, answer: (request: Request, context?: RouteContext) => Promise<Response>): Handler {
  const handler: Handler = async (request, context) => {
    const raw = ((await context?.params) ?? {}) as Record<string, string | string[] | undefined>;
    const where = { need: role, method: request.method, route: patternOf(new URL(request.url).pathname, raw) };
    return guard(request, where, () => answer(request, context).catch(errorResponse));
  };
  handlers.add(handler);
  return handler;
}

/** The answer to a refusal (lib/errors.ts, or a body too large); anything else is rethrown, a 500. */
export function errorResponse(error: unknown): NextResponse {
  const reply = errorReply(error);
  if (!reply) throw error;
  return NextResponse.json(reply.body, { status: reply.status, headers: reply.headers });
}

/** The route pattern of a path, its params' values put back as [name] (left to right, one segment each). */
export function patternOf(pathname: string, params: Record<string, string | string[] | undefined>): string {
  const segments = pathname.split("/");
  let from = 1;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== "string") continue;
    const at = segments.findIndex((seg, i) => i >= from && safeDecode(seg) === value);
    if (at < 0) continue;
    segments[at] = `[${name}]`;
    from = at + 1;
  }
  return segments.join("/");
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The query as an endpoint declares it: `search` reads the URLSearchParams themselves, `query` an object of them. */
function parseQuery<Q>(e: { query?: z.ZodType<Q>; search?: z.ZodType<Q> }, url: URL) {
  return e.search ? e.search.safeParse(url.searchParams) : e.query?.safeParse(Object.fromEntries(url.searchParams));
}

async function parseInput<P, Q, H, B, R>(
  request: Request,
  context: RouteContext | undefined,
  e: Endpoint<P, Q, H, B, R>,
  who: Principal | undefined,
): Promise<Input<P, Q, H, B>> {
  // Params and query are refused together, before the body is read.
  const url = new URL(request.url);
  const params = e.params?.safeParse((await context?.params) ?? {});
  const query = parseQuery(e, url);
  const refused: FieldErrors = {
    ...(params?.success === false ? fieldErrors(params.error) : {}),
    ...(query?.success === false ? fieldErrors(query.error) : {}),
  };
  if (Object.keys(refused).length > 0) throw Invalid.fields(refused);
  const headers = e.headers && parse(e.headers, Object.fromEntries(Object.keys(e.headers.shape).map((name) => [name, request.headers.get(name) ?? undefined])));
  let body: unknown = undefined;
  if (e.rawBody) body = await readRawJson(request, e.rawBody);
  else if (e.body) body = parse(e.body, await readJson(request, e.bodyLimit ?? BODY_LIMIT));
  return { params: params?.data as P, query: query?.data as Q, headers: headers as H, body: body as B, who };
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw Invalid.fields(fieldErrors(parsed.error));
  return parsed.data;
}

/** JSON with a status and headers, for a reply that depends on the result. */
export function json(data: unknown, init?: ReplyInit): NextResponse {
  return NextResponse.json(data, init);
}

/** A download: JSON, or text of the given type (never sniffed as something else). Never cached. */
export function attachment(file: { name: string } & ({ json: unknown } | { text: string; type: string })): Response {
  const headers = { "Content-Disposition": `attachment; filename="${file.name}"`, "Cache-Control": "no-store" };
  if ("json" in file) return NextResponse.json(file.json, { headers });
  return new NextResponse(file.text, { headers: { "Content-Type": file.type, ...headers, "X-Content-Type-Options": "nosniff" } });
}

/** Text of the given type (the /metrics exposition). */
export function text(body: string, type: string): Response {
  return new Response(body, { headers: { "Content-Type": type } });
}

/** JSON serialized once beforehand (the whole health document, written once per published health). Never cached. */
export function serializedJson(body: string): Response {
  return new Response(body, { headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}

const written = new WeakMap<object, string>();
/** sharedJson's text. */
export function sharedJsonText(result: object): string {
  let body = written.get(result);
  if (body === undefined) written.set(result, (body = JSON.stringify(result)));
  return body;
}
/**
 * JSON of a result many requests share (a list read once per change: lib/incidents/history/list-cache.ts), written
 * once per object; such a result is never changed after it is handed out. Never cached by the client.
 */
export function sharedJson(result: object): Response {
  return serializedJson(sharedJsonText(result));
}

export interface HotEndpoint<P, Q> {
  /** Who may call it: the route's own role. */
  role: Need;
  /** The route's dynamic segments, as route() declares them. */
  params?: z.ZodType<P>;
  /** The search parameters as an object, or (search) the URLSearchParams themselves, as route() declares them. */
  query?: z.ZodType<Q>;
  search?: z.ZodType<Q>;
  /** The text written once per change; undefined for what the route handler should answer. */
  read: (input: { params: P; query: Q }) => Promise<string | undefined> | string | undefined;
}

/**
 * Answers the plain GET of `pattern` at the edge, before Next (hot-reads.ts), with the text `read` wrote once per
 * change, when the caller's role allows it and the params and query parse; anything else (a refusal, a 400, what
 * `read` leaves undefined) is the route handler's beside it, which answers, refuses and audits as always.
 * Registered when the route's module loads.
 */
export function hotRoute<P = undefined, Q = undefined>(pattern: string, endpoint: HotEndpoint<P, Q>): void {
  registerHotRead(pattern, async (url, headers) => {
    if (!(await checkAccess(headers, endpoint.role)).ok) return undefined;
    const raw = paramsOf(pattern, url.pathname);
    if (!raw) return undefined;
    const params = endpoint.params?.safeParse(raw);
    const query = parseQuery(endpoint, url);
    if (params?.success === false || query?.success === false) return undefined;
    return endpoint.read({ params: params?.data as P, query: query?.data as Q });
  });
}

/** A path's values of the pattern's [name] segments, or undefined when it is not the pattern's (or not decodable). */
function paramsOf(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = pathname.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const name = /^\[(\w+)\]$/.exec(want[i])?.[1];
    if (!name) {
      if (want[i] !== got[i]) return undefined;
      continue;
    }
    try {
      params[name] = decodeURIComponent(got[i]);
    } catch {
      return undefined;
    }
  }
  return params;
}
