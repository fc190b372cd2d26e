import { NextResponse } from "next/server";
import type { z } from "zod";
import { changed, cleanValue, depthOf, describeReport, emptyReport } from "@/lib/text/outside-text";
import { fieldErrors } from "./field-errors";
import { readBounded } from "./read-bounded";
import { invalid, tooLarge } from "./json";

export { fieldErrors };

// The one JSON body reader of the API routes: at most `limit` bytes, nesting at most MAX_BODY_DEPTH deep
// (checked before anything recursive touches the value), every string cleaned by the text boundary.

/** Bodies people and scripts send: a note, an answer, a little evidence. */
export const BODY_LIMIT = 64 * 1024;
/** Levels of objects and arrays a body may nest (the top value is level 1). */
export const MAX_BODY_DEPTH = 32;

/** Reads at most `limit` bytes of JSON; the response to send instead when the body is too big, not JSON or too deep. */
export async function readJson(request: Request, limit = BODY_LIMIT): Promise<{ value: unknown } | { response: NextResponse }> {
  const read = await readBounded(request, limit);
  if ("tooLarge" in read) return { response: tooLarge(limit) };
  const { text } = read;
  if (!text.trim()) return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not V8's message: it quotes the body.
    return { response: invalid({ body: ["must be JSON"] }) };
  }
  if (depthOf(parsed, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) return { response: invalid({ body: [`nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels`] }) };
  const report = emptyReport();
  const value = cleanValue(parsed, { maxDepth: MAX_BODY_DEPTH + 1, maxItems: Number.MAX_SAFE_INTEGER }, report);
  if (changed(report)) console.warn(`[faultline] ${request.method} ${new URL(request.url).pathname.slice(0, 200)}: cleaned the request body: ${describeReport(report)}`);
  return { value };
}

/** Parses a body with a schema; the 4xx response on failure. */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S, limit = BODY_LIMIT): Promise<{ data: z.infer<S> } | { response: NextResponse }> {
  const read = await readJson(request, limit);
  if ("response" in read) return read;
  const parsed = schema.safeParse(read.value);
  if (!parsed.success) return { response: invalid(fieldErrors(parsed.error)) };
  return { data: parsed.data };
}
