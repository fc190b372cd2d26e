import { headers } from "next/headers";
import { forbidden, redirect, unauthorized } from "next/navigation";
import { loadEnv } from "@/lib/env";
import { checkAccess } from "./gate";
import type { Principal } from "./identify";
import type { Role } from "./roles";

// Pages ask here, at their top, with the role they need (declared in the page itself): the same check as the
// route handlers'. Signed out under OIDC: to sign-in; otherwise a 401 or 403 page that says why (forbidden.tsx).

export interface Viewer {
  user: string;
  role: Role;
  mode: "none" | "proxy" | "oidc";
}

export async function pageAccess(need: Role): Promise<Viewer> {
  const access = await checkAccess(await headers(), need);
  if (access.ok) return viewerOf(access.principal!);
  if (access.status === 401 && loadEnv().FAULTLINE_AUTH === "oidc") redirect("/auth/signin");
  if (access.status === 401) unauthorized();
  forbidden();
}

const viewerOf = (p: Principal): Viewer => ({ user: p.user, role: p.role, mode: p.via });

/** Who is looking, for the header and the 403 page; never refuses. */
export async function currentAccess(): Promise<{ viewer?: Viewer; error?: string }> {
  const access = await checkAccess(await headers(), "viewer");
  if (access.ok) return { viewer: viewerOf(access.principal!) };
  return { error: access.error, viewer: undefined };
}

/** Why the current request was refused a role (forbidden.tsx), or who they are if it was only the role. */
export async function refusalOf(): Promise<string> {
  const access = await checkAccess(await headers(), "viewer");
  if (!access.ok) return access.error;
  return `${access.principal!.user} is a ${access.principal!.role}, which is not enough for this page`;
}
