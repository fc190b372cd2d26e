import { Invalid } from "@/lib/errors";
import { changed, cleanValue, depthOf, describeReport, emptyReport } from "@/lib/text/outside-text";
import type { BodyRule } from "./body-limit";
import { BodyTooLarge } from "./error-reply";
import { readBounded } from "./read-bounded";

// The JSON body readers of the API routes. Each throws what it refuses (error-reply.ts answers it): a body
// past the bound, one that is not JSON (never V8's message: it quotes the body), one nested too deep.

/** Bodies people and scripts send: a note, an answer, a little evidence. */
export const BODY_LIMIT = 64 * 1024;
/** Levels of objects and arrays a body may nest (the top value is level 1). */
export const MAX_BODY_DEPTH = 32;

const notJson = () => Invalid.fields({ body: ["must be JSON"] });

/**
 * At most `limit` bytes of JSON (an empty body is {}), nesting at most MAX_BODY_DEPTH deep (checked before
 * anything recursive touches the value), every string cleaned by the text boundary.
 */
export async function readJson(request: Request, limit = BODY_LIMIT): Promise<unknown> {
  const read = await readBounded(request, limit);
  if ("tooLarge" in read) throw new BodyTooLarge(limit);
  const { text } = read;
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw notJson();
  }
  if (depthOf(parsed, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) throw Invalid.fields({ body: [`nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels`] });
  const report = emptyReport();
  const value = cleanValue(parsed, { maxDepth: MAX_BODY_DEPTH + 1, maxItems: Number.MAX_SAFE_INTEGER }, report);
  if (changed(report))
    console.warn(`[faultline] ${request.method} ${new URL(request.url).pathname.slice(0, 200)}: cleaned the request body: ${describeReport(report)}`);
  return value;
}

/**
 * JSON exactly as sent, under a route's own bound (the Alertmanager webhook): never cut, capped or cleaned
 * here, for the route checks it item by item; past the bound, the route's own refusal.
 */
export async function readRawJson(request: Request, rule: BodyRule): Promise<unknown> {
  const read = await readBounded(request, rule.limit);
  if ("tooLarge" in read) throw rule.overLimit?.(read.tooLarge) ?? new BodyTooLarge(rule.limit);
  try {
    return JSON.parse(read.text);
  } catch {
    throw notJson();
  }
}
