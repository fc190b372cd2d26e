import { inRanges } from "@/lib/auth-config";
import { loadEnv, type Env } from "@/lib/env";
import { cleanText } from "@/lib/text/outside-text";
import { PEER_HEADER } from "./peer";
import { RESERVED_ACTORS, roleFromGroups, type Role } from "./roles";
import { SESSION_COOKIE, sessionOf } from "./sessions";

// Who is asking, from the request alone: the one reading of identity for route handlers and pages alike.

export interface Principal {
  /** The name recorded as the actor of what they do. */
  user: string;
  role: Role;
  groups: string[];
  via: "none" | "proxy" | "oidc";
  /** The server-side session (oidc). */
  session?: string;
}

export type Identity =
  | { ok: true; principal: Principal; peer?: string }
  /** 401: nobody signed in (or the session ended). */
  | { ok: false; status: 401; error: string; user?: string; peer?: string }
  /** 403: signed in but no role, a reserved name, or not through the trusted proxy. */
  | { ok: false; status: 403; error: string; user?: string; peer?: string };

export interface HeaderSource {
  get(name: string): string | null;
}

const LOCAL: Principal = { user: "local", role: "admin", groups: [], via: "none" };

/** A header's value cleaned of what cannot be stored or shown, bounded. */
function headerText(headers: HeaderSource, name: string, max = 256): string | undefined {
  const value = headers.get(name)?.trim();
  return value ? cleanText(value, max) : undefined;
}

export function cookieValue(headers: HeaderSource, name: string): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A person's identity from their name and groups, with the refusals every mode shares. */
export function principalOf(user: string, groups: string[], via: Principal["via"], env: Env, peer?: string): Identity {
  if (RESERVED_ACTORS.has(user.toLowerCase()))
    return { ok: false, status: 403, error: `"${user}" is a name Faultline itself acts under; nobody signs in as it`, user, peer };
  const role = roleFromGroups(groups, env.FAULTLINE_ROLE_GROUPS ?? { admin: [], responder: [], viewer: [] });
  if (!role)
    return {
      ok: false,
      status: 403,
      error: `${user} is signed in but none of their groups (${groups.join(", ") || "none"}) has a role in Faultline; ask an admin to add one to FAULTLINE_ROLE_GROUPS`,
      user,
      peer,
    };
  return { ok: true, principal: { user, role, groups, via }, peer };
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
  const session = id ? await sessionOf(id) : undefined;
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
