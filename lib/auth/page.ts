import { headers } from "next/headers";
import { forbidden, redirect, unauthorized } from "next/navigation";
import { cache } from "react";
import { loadEnv } from "@/lib/env";
import { checkAccess, refusedAs, type Access } from "./gate";
import type { HeaderSource, Principal } from "./identify";
import { noteRefusal, ROUTE_HEADER } from "./refusals";
import type { Role } from "./roles";

// Pages ask here, at their top, with the role they need (declared in the page itself): the same check as the
// route handlers'. Signed out under OIDC: to sign-in; otherwise a 401 or 403 page that says why (forbidden.tsx).
// Each refused page request is noted for the audit log once, however many of its layouts ask.

export interface Viewer {
  user: string;
  role: Role;
  mode: "none" | "proxy" | "oidc";
}

export async function pageAccess(need: Role): Promise<Viewer> {
  const sent = await headers();
  const access = await checkAccess(sent, need);
  if (access.ok) return viewerOf(access.principal!);
  notePageRefusal(sent, access);
  if (access.status === 401 && loadEnv().FAULTLINE_AUTH === "oidc") redirect("/auth/signin");
  if (access.status === 401) unauthorized();
  forbidden();
}

/** One flag per request: React's cache() lives for one server render. */
const thisRequest = cache(() => ({ noted: false }));

function notePageRefusal(sent: HeaderSource, access: Extract<Access, { ok: false }>): void {
  const once = thisRequest();
  if (once.noted) return;
  once.noted = true;
  // The edge stamps the method and route pattern (lib/http/edge.ts); without it (next dev) the page is unnamed.
  const [method, route] = /^([A-Z]+) (\/\S*)$/.exec(sent.get(ROUTE_HEADER) ?? "")?.slice(1) ?? ["GET", "(page)"];
  noteRefusal({
    ...refusedAs(access),
    method,
    route,
    action: `${method} ${route}`,
    remote: access.peer,
    status: access.status,
    reason: access.error,
    detail: access.error,
  });
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
