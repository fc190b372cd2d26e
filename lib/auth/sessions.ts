import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";

// Server-side sessions (FAULTLINE_AUTH=oidc). The browser holds only an opaque random id; the table keys rows by
// its sha256, so a copy of the table lets nobody sign in.

export const SESSION_COOKIE = "faultline_session";

const hash = (id: string) => createHash("sha256").update(id).digest("hex");

export interface Session {
  user: string;
  groups: string[];
  expiresAt: Date;
  refreshToken: string | null;
  idToken: string | null;
}

/** A session not signed out (expired or not: identify.ts refreshes or refuses it), or undefined for none. */
export async function sessionRow(id: string): Promise<Session | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  const row = await getDb().authSession.findUnique({ where: { idHash: hash(id) } });
  if (!row || row.endedAt) return undefined;
  return { user: row.user, groups: row.groups as string[], expiresAt: row.expiresAt, refreshToken: row.refreshToken, idToken: row.idToken };
}

/** A new session; returns the id for the cookie. */
export async function createSession(s: Omit<Session, "expiresAt"> & { expiresAt: Date }, now = new Date()): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await getDb().authSession.create({ data: { idHash: hash(id), ...s, createdAt: now } });
  return id;
}

/** Extends a session after its tokens were refreshed. */
export async function renewSession(id: string, s: Pick<Session, "expiresAt" | "groups" | "refreshToken" | "idToken">): Promise<void> {
  await getDb().authSession.update({ where: { idHash: hash(id) }, data: s });
}

export async function endSession(id: string, now = new Date()): Promise<void> {
  await getDb().authSession.updateMany({ where: { idHash: hash(id), endedAt: null }, data: { endedAt: now } });
}

export function cookieValue(headers: { get(name: string): string | null }, name: string): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
