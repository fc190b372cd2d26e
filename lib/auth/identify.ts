import { loadEnv, type Env } from "@/lib/env";
import { refreshSession } from "./oidc";
import { PEER_HEADER } from "./peer";
import { LOCAL, principalOf, proxyIdentity, type HeaderSource, type Identity, type Principal } from "./principal";
import { cookieValue, SESSION_COOKIE } from "./session-cookie";
import { sessionRow } from "./sessions";

// Who is asking, from the request alone: the one reading of identity for route handlers and pages alike.

export type { HeaderSource, Identity, Principal };

export async function identify(headers: HeaderSource, env: Env = loadEnv()): Promise<Identity> {
  const peer = headers.get(PEER_HEADER) ?? undefined;
  if (env.FAULTLINE_AUTH === "none") return { ok: true, principal: LOCAL, peer };
  if (env.FAULTLINE_AUTH === "proxy") return proxyIdentity(headers, peer, env);
  const id = cookieValue(headers, SESSION_COOKIE);
  let session = id ? await sessionRow(id) : undefined;
  // Past its time, a session with a refresh token is renewed from the provider; without one, it has ended.
  if (id && session && session.expiresAt <= new Date()) session = await refreshSession(id);
  if (!session) return { ok: false, status: 401, error: id ? "your session has ended; sign in again" : "not signed in", peer };
  const identity = principalOf(session.user, session.groups, "oidc", env, peer);
  if (identity.ok) identity.principal.session = id;
  return identity;
}

/** The actor of an action: the signed-in person, never a name the request carries. */
export function actorOf(who: Principal | undefined): string {
  if (!who) throw new Error("a person's action reached a route without a signed-in person");
  return who.user;
}
