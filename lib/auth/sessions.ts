import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { sessionKey } from "./session-cookie";

// Server-side sessions (FAULTLINE_AUTH=oidc). The browser holds only an opaque random id; the table keys rows by
// its sha256, so a copy of the table lets nobody sign in.

const hash = (id: string) => sessionKey(id) ?? "";

export interface Session {
  user: string;
  groups: string[];
  expiresAt: Date;
  refreshToken: string | null;
  idToken: string | null;
}

/** A session not signed out (expired or not: identify.ts refreshes or refuses it), or undefined for none. */
export async function sessionRow(id: string): Promise<Session | undefined> {
  const key = sessionKey(id);
  if (!key) return undefined;
  const row = await getDb().authSession.findUnique({ where: { idHash: key } });
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
