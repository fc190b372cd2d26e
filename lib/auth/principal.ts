import type { Env } from "@/lib/env";
import { RESERVED_ACTORS, roleFromGroups, type Role } from "./roles";

// Who someone is once a mode has read their name and groups, and the refusals every mode shares.

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
