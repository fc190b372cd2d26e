import { NextResponse } from "next/server";
import { IncidentError } from "./errors";

// Request plumbing for the incident routes: the bounded JSON reader (lib/http/read-json.ts), zod field
// errors, domain errors as HTTP.

export { invalid } from "@/lib/http/json";
export { BODY_LIMIT, fieldErrors, parseBody, readJson } from "@/lib/http/read-json";

/** Maps what the incident store refuses to its HTTP answer; anything else is rethrown (a 500). */
export function errorResponse(error: unknown): NextResponse {
  if (error instanceof IncidentError) {
    return NextResponse.json({ error: error.message, ...(error.fields ? { fields: error.fields } : {}) }, { status: error.status });
  }
  throw error;
}
