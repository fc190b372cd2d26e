import type { z } from "zod";

// Shared wording for bad input, so every parser reports problems the same way and never echoes
// more of the input than the reader needs to find the fault.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (value === undefined) return "nothing";
  return `a ${typeof value}`;
}

/** Quotes a piece of input for a message, cut short so one bad value cannot flood a log line. */
export function quote(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

// V8's messages quote the surrounding input ("... is not valid JSON"), which may hold secret data,
// so only the position or the offending token is kept.
export function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (text.trim() === "") return { ok: false, error: "invalid JSON: the text is empty" };
    const position = /position (\d+)/.exec(message);
    if (/unexpected end of json input/i.test(message) || (position && Number(position[1]) >= text.trimEnd().length)) {
      return { ok: false, error: `invalid JSON: input ends early after ${text.length} characters (truncated?)` };
    }
    if (position) return { ok: false, error: `invalid JSON at character ${Number(position[1]) + 1} of ${text.length}` };
    const token = /^Unexpected token '(.{1,4})'/.exec(message);
    if (token) return { ok: false, error: `invalid JSON: unexpected ${quote(token[1])}` };
    return { ok: false, error: "invalid JSON" };
  }
}

/** Bodies arrive either already decoded or as response text; both are accepted. */
export function decodeBody(body: unknown): JsonResult {
  return typeof body === "string" ? parseJson(body) : { ok: true, value: body };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`)).join("");
}

/** One line per zod issue, each naming the field: `status: "Degraded" is not True, False or Unknown`. */
export function describeIssues(error: z.ZodError, at?: string): string[] {
  return error.issues.map((issue) => {
    const field = formatPath(at ? [at, ...issue.path] : issue.path);
    const missing = issue.code === "invalid_type" && /received undefined$/.test(issue.message);
    const text = missing ? "is missing" : issue.message;
    if (!field) return text;
    // Our own messages read on from the field name ("status is missing", `status "X" is not ...`).
    return /^("|is )/.test(text) ? `${field} ${text}` : `${field}: ${text}`;
  });
}

/** A zod error function for enums that names the rejected value and the allowed ones. */
export function enumError(allowed: readonly string[]) {
  const list = `${allowed.slice(0, -1).join(", ")} or ${allowed[allowed.length - 1]}`;
  return (issue: { input?: unknown }) => {
    if (issue.input === undefined) return "is missing";
    if (typeof issue.input === "string") return `${quote(issue.input)} is not ${list}`;
    return `is ${describeType(issue.input)}, not ${list}`;
  };
}
