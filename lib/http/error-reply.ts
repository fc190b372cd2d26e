import { Conflict, DomainError, Invalid, NotFound, Unavailable } from "@/lib/errors";

// The one place where a refusal becomes an HTTP answer: { error, fields?, ...extra } with the status the client
// acts on. No Next.js import: the server's edge (edge.ts) answers with it before Next.js sees a request.

export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: { error: string } & Record<string, unknown>;
}

/** A body past the route's byte bound: the edge's own refusal, not the domain's. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body larger than ${limit} bytes`);
  }
}

const STATUS: [new (...args: never[]) => Error, number][] = [
  [Invalid, 400],
  [NotFound, 404],
  [Conflict, 409],
  [BodyTooLarge, 413],
  [Unavailable, 503],
];

/** The answer for a refusal; undefined for any other error (a fault, which stays a 500). */
export function errorReply(error: unknown): ErrorReply | undefined {
  const status = STATUS.find(([kind]) => error instanceof kind)?.[1];
  if (status === undefined) return undefined;
  const e = error as Error;
  const domain = e instanceof DomainError ? e : undefined;
  const headers: Record<string, string> = {};
  if (e instanceof Unavailable && e.retryAfterSeconds !== undefined) headers["retry-after"] = String(e.retryAfterSeconds);
  return { status, headers, body: { error: e.message, ...(domain?.fields ? { fields: domain.fields } : {}), ...domain?.extra } };
}
