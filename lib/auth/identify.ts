import { inRanges } from "@/lib/auth-config";
import { loadEnv, type Env } from "@/lib/env";
import { cleanText } from "@/lib/text/outside-text";
import { refreshSession } from "./oidc";
import { PEER_HEADER } from "./peer";
import { principalOf, type HeaderSource, type Identity, type Principal } from "./principal";
import { cookieValue, SESSION_COOKIE, sessionRow } from "./sessions";

// Who is asking, from the request alone: the one reading of identity for route handlers and pages alike.

export type { HeaderSource, Identity, Principal };

const LOCAL: Principal = { user: "local", role: "admin", groups: [], via: "none" };

/** A header's value cleaned of what cannot be stored or shown, bounded. */
function headerText(headers: HeaderSource, name: string, max = 256): string | undefined {
  const value = headers.get(name)?.trim();
  return value ? cleanText(value, max) : undefined;
}

export async function identify(headers: HeaderSource, env: Env = loadEnv()): Promise<Identity> {
  const peer = headers.get(PEER_HEADER) ?? undefined;
  if (env.FAULTLINE_AUTH === "none") return { ok: true, principal: LOCAL, peer };
  if (env.FAULTLINE_AUTH === "proxy") {
    // Identity headers are believed only from the proxy; from anywhere else nobody is trusted, headers or not.
    if (!peer || !inRanges(peer, env.FAULTLINE_PROXY_SOURCES ?? []))
      return { ok: false, status: 403, error: "requests are accepted only through the authenticating proxy", peer };
    const user = headerText(headers, env.FAULTLINE_PROXY_EMAIL_HEADER) ?? headerText(headers, env.FAULTLINE_PROXY_USER_HEADER);
    if (!user) return { ok: false, status: 401, error: "not signed in: the authenticating proxy sent no user", peer };
    const groups = (headerText(headers, env.FAULTLINE_PROXY_GROUPS_HEADER, 8192) ?? "")
      .split(",")
      .map((g) => g.trim())
      .filter(Boolean)
      .slice(0, 500);
    return principalOf(user, groups, "proxy", env, peer);
  }
  const id = cookieValue(headers, SESSION_COOKIE);
  let session = id ? await sessionRow(id) : undefined;
  // Past its time, a session with a refresh token is renewed from the provider; without one, it has ended.
  if (id && session && session.expiresAt <= new Date()) session = await refreshSession(id, session);
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
