import { inRanges } from "@/lib/auth-config";
import type { Env } from "@/lib/env";
import { cleanText } from "@/lib/text/outside-text";
import { RESERVED_ACTORS, roleFromGroups, type Role } from "./roles";

// Who someone is once a mode has read their name and groups, and the refusals every mode shares. No database here:
// the edge reads who a refused request came from with it too (refusals.ts).

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

/** FAULTLINE_AUTH=none: one person at the machine, the admin. */
export const LOCAL: Principal = { user: "local", role: "admin", groups: [], via: "none" };

/** The role recorded for a request nobody was identified from, and for someone whose groups give no role. */
export const ANONYMOUS = "anonymous";
export const NO_ROLE = "none";

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

/** A header's value cleaned of what cannot be stored or shown, bounded. */
function headerText(headers: HeaderSource, name: string, max = 256): string | undefined {
  const value = headers.get(name)?.trim();
  return value ? cleanText(value, max) : undefined;
}

/** FAULTLINE_AUTH=proxy: the identity headers, believed only from the proxy's address. */
export function proxyIdentity(headers: HeaderSource, peer: string | undefined, env: Env): Identity {
  // From anywhere else nobody is trusted, headers or not.
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

/** Who and with what role an identity is, as the audit log records it. */
export function recordedAs(identity: Identity): { actor: string; role: string } {
  if (identity.ok) return { actor: identity.principal.user, role: identity.principal.role };
  return identity.user ? { actor: identity.user, role: NO_ROLE } : { actor: "(unknown)", role: ANONYMOUS };
}
