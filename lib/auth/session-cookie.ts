import { createHash } from "node:crypto";

// The session cookie and the key a session row is found by, without the database: the edge reads them too, before
// Next.js, where no database call belongs on the request path (refusals.ts).

export const SESSION_COOKIE = "faultline_session";

/** The sha256 a session row is keyed by, or undefined for a value that cannot be a session id. */
export function sessionKey(id: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  return createHash("sha256").update(id).digest("hex");
}

export function cookieValue(headers: { get(name: string): string | null }, name: string): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
