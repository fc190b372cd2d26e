import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { sessionKey } from "./session-cookie";

// Server-side sessions (FAULTLINE_AUTH=oidc). The browser holds only an opaque random id; the table keys rows by
// its sha256, so a copy of the table lets nobody sign in.

export interface Session {
  user: string;
  groups: string[];
  expiresAt: Date;
  refreshToken: string | null;
  idToken: string | null;
}

type Row = NonNullable<Awaited<ReturnType<PrismaClient["authSession"]["findUnique"]>>>;
const sessionOf = (row: Row): Session => ({
  user: row.user,
  groups: row.groups as string[],
  expiresAt: row.expiresAt,
  refreshToken: row.refreshToken,
  idToken: row.idToken,
});

/** A session not signed out (expired or not: identify.ts refreshes or refuses it), or undefined for none. */
export async function sessionRow(id: string): Promise<Session | undefined> {
  const key = sessionKey(id);
  if (!key) return undefined;
  const row = await getDb().authSession.findUnique({ where: { idHash: key } });
  if (!row || row.endedAt) return undefined;
  return sessionOf(row);
}

/** A new session; returns the id for the cookie. */
export async function createSession(s: Omit<Session, "expiresAt"> & { expiresAt: Date }, now = new Date()): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  // 32 random bytes in base64url: always a well-formed id.
  await getDb().authSession.create({ data: { idHash: sessionKey(id)!, ...s, createdAt: now } });
  return id;
}

/** A renewal's outcome: the session's new tokens and time, or "ended" when nothing can renew it. */
export type Renewal = Pick<Session, "expiresAt" | "groups" | "refreshToken" | "idToken"> | "ended";

/**
 * How long one renewal may hold the session's row: the provider's answer (openid-client waits 30 s at most) and the
 * write. A replica that waits for the row waits within the same bound.
 */
export const RENEW_TIMEOUT_MS = 40_000;

/**
 * Renews a session past its time, one renewal at a time across replicas. The row is locked (SELECT ... FOR UPDATE)
 * from before the provider is asked until the new tokens are written, so a second replica waits on the lock, then
 * reads the session the first renewed and uses it: a refresh token that rotates is presented once. `renew` runs only
 * when the session, read under the lock, is still past its time and has a refresh token.
 */
export async function renewExpired(id: string, renew: (s: Session) => Promise<Renewal>, db: PrismaClient = getDb()): Promise<Session | undefined> {
  const key = sessionKey(id);
  if (!key) return undefined;
  return db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "auth_sessions" WHERE "id_hash" = ${key} FOR UPDATE`;
      const row = await tx.authSession.findUnique({ where: { idHash: key } });
      if (!row || row.endedAt) return undefined;
      const session = sessionOf(row);
      // Renewed by another replica while this one waited for the row.
      if (session.expiresAt > new Date()) return session;
      if (!session.refreshToken) return undefined;
      const renewal = await renew(session);
      if (renewal === "ended") {
        await tx.authSession.update({ where: { idHash: key }, data: { endedAt: new Date() } });
        return undefined;
      }
      await tx.authSession.update({ where: { idHash: key }, data: renewal });
      return { ...session, ...renewal };
    },
    { maxWait: 10_000, timeout: RENEW_TIMEOUT_MS },
  );
}

export async function endSession(id: string, now = new Date()): Promise<void> {
  const key = sessionKey(id);
  if (key) await getDb().authSession.updateMany({ where: { idHash: key, endedAt: null }, data: { endedAt: now } });
}
