import { NextResponse } from "next/server";

// One shape for API errors: { error, fields? } with the HTTP status the client should act on (a 404 may add
// the id it looked for).

export type FieldErrors = Record<string, string[]>;

export function invalid(fields: FieldErrors, status = 400): NextResponse {
  return NextResponse.json({ error: "invalid request", fields }, { status });
}

/** The catalog's query errors use this name. */
export const badRequest = (fields: FieldErrors): NextResponse => invalid(fields);

export function notFound(message: string, extra: Record<string, unknown> = {}): NextResponse {
  return NextResponse.json({ error: message, ...extra }, { status: 404 });
}

export function tooLarge(limit: number): NextResponse {
  return NextResponse.json({ error: `request body larger than ${limit} bytes` }, { status: 413 });
}

export function conflict(error: string): NextResponse {
  return NextResponse.json({ error }, { status: 409 });
}
