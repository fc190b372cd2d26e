import { NextResponse } from "next/server";
import type { FieldErrors } from "@/lib/catalog/filter";

// One shape for API errors: { error, fields? } with the HTTP status the client should act on.

export function badRequest(fields: FieldErrors): NextResponse {
  return NextResponse.json({ error: "invalid request", fields }, { status: 400 });
}

export function notFound(message: string, extra: Record<string, unknown> = {}): NextResponse {
  return NextResponse.json({ error: message, ...extra }, { status: 404 });
}
