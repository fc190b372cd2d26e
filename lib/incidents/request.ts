import { NextResponse } from "next/server";
import type { z } from "zod";
import { IncidentError } from "./errors";

// Request plumbing for the incident routes: bounded JSON bodies, zod field errors, domain errors as HTTP.

export const BODY_LIMIT = 64 * 1024;

export function invalid(fields: Record<string, string[]>, status = 400): NextResponse {
  return NextResponse.json({ error: "invalid request", fields }, { status });
}

export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** Reads at most `limit` bytes of JSON; the response to send instead when the body is too big or not JSON. */
export async function readJson(request: Request, limit = BODY_LIMIT): Promise<{ value: unknown } | { response: NextResponse }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => ({ response: NextResponse.json({ error: `request body larger than ${limit} bytes` }, { status: 413 }) });
  if (declared > limit) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { response: invalid({ body: ["must be JSON"] }) };
  }
}

/** Parses a body with a schema; the 4xx response on failure. */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S, limit = BODY_LIMIT): Promise<{ data: z.infer<S> } | { response: NextResponse }> {
  const read = await readJson(request, limit);
  if ("response" in read) return read;
  const parsed = schema.safeParse(read.value);
  if (!parsed.success) return { response: invalid(fieldErrors(parsed.error)) };
  return { data: parsed.data };
}

/** Maps what the incident store refuses to its HTTP answer; anything else is rethrown (a 500). */
export function errorResponse(error: unknown): NextResponse {
  if (error instanceof IncidentError) {
    return NextResponse.json({ error: error.message, ...(error.fields ? { fields: error.fields } : {}) }, { status: error.status });
  }
  throw error;
}
