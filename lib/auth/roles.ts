import { ROLES, type Role, type RoleGroups } from "@/lib/auth-config";

// Roles are ordered: a responder can do what a viewer can, an admin what a responder can.

export type { Role };
/** What a route needs: a role, or nothing from people ("public": probes; "machine": its own token, lib/http). */
export type Need = Role | "public" | "machine";

export function rank(role: Role): number {
  return ROLES.indexOf(role);
}

export function allows(have: Role, need: Role): boolean {
  return rank(have) >= rank(need);
}

/** The highest role any of `groups` maps to ("*" in a role's list: anyone signed in); undefined for none. */
export function roleFromGroups(groups: string[], mapping: RoleGroups): Role | undefined {
  const mine = new Set(groups);
  for (const role of [...ROLES].reverse()) {
    if (mapping[role].some((g) => g === "*" || mine.has(g))) return role;
  }
  return undefined;
}

/** Names the rules and Alertmanager act under on the timeline; nobody signs in as them. */
export const RESERVED_ACTORS = new Set(["faultline", "alertmanager"]);
