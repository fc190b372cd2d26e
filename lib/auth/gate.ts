import { loadEnv } from "@/lib/env";
import { recordAudit } from "./audit";
import { identify, type HeaderSource, type Identity, type Principal } from "./identify";
import { ANONYMOUS, NO_ROLE } from "./principal";
import { noteRefusal } from "./refusals";
import { allows, type Need, type Role } from "./roles";

// THE place where a request's role is checked, for route handlers (lib/http/route.ts) and pages (page.ts) alike,
// and where every state-changing request and every refusal is written to the audit log with its outcome.

export interface Guarded {
  /** What the route needs (declared next to it: route({ role })). */
  need: Need;
  method: string;
  /** The route pattern: /api/v1/incidents/[id]/acknowledge. */
  route: string;
  /** What it does, for the audit log: incident.acknowledge. */
  action?: string;
  object?: { type: string; id: string };
}

/** A refusal says whose it is when the person is known: their name, and their role when it was only not enough. */
export type Access = { ok: true; principal?: Principal; peer?: string } | (Extract<Identity, { ok: false }> & { role?: Role });

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether `headers` may do what `need` asks. */
export async function checkAccess(headers: HeaderSource, need: Need): Promise<Access> {
  // Probes and machine routes (the webhook, /metrics) answer no person; their tokens are lib/http's.
  if (need === "public" || need === "machine") return { ok: true };
  const identity = await identify(headers);
  if (!identity.ok) return identity;
  noteSignIn(identity.principal, identity.peer);
  if (allows(identity.principal.role, need)) return identity;
  return {
    ok: false,
    status: 403,
    error: refusal(identity.principal, need),
    user: identity.principal.user,
    role: identity.principal.role,
    peer: identity.peer,
  };
}

function refusal(p: Principal, need: Role): string {
  return `${p.user} is a ${p.role}; this needs the ${need} role`;
}

/** The name and role a refusal is recorded under: "none" for someone without a role, "anonymous" for nobody identified. */
export function refusedAs(access: Extract<Access, { ok: false }>): { actor: string; role: string } {
  if (!access.user) return { actor: "(unknown)", role: ANONYMOUS };
  return { actor: access.user, role: access.role ?? NO_ROLE };
}

/**
 * Runs `act` as the signed-in person when their role allows it, answers 401/403 otherwise. Audits changes (a 4xx
 * of the domain as a refusal) and every refusal; a refusal is noted in memory, so its answer waits on no write.
 */
export async function guard(request: Request, g: Guarded, act: (who: Principal | undefined) => Promise<Response>): Promise<Response> {
  const access = await checkAccess(request.headers, g.need);
  const changes = !READS.has(g.method) && g.need !== "public" && g.need !== "machine";
  if (!access.ok) {
    noteRefusal({ ...refusedAs(access), ...where(g), remote: access.peer, status: access.status, reason: access.error, detail: access.error });
    return Response.json({ error: access.error }, { status: access.status, headers: { "Cache-Control": "no-store" } });
  }
  const response = await act(access.principal);
  if (!changes) return response;
  const who = { actor: access.principal!.user, role: access.principal!.role, remote: access.peer, status: response.status };
  if (response.status >= 400 && response.status < 500) {
    const why = await errorOf(response);
    noteRefusal({ ...who, ...where(g), reason: why ?? String(response.status), detail: why });
  } else await recordAudit({ ...who, ...where(g) });
  return response;
}

/** The `error` of a refusal's JSON answer, read from a copy (the answer itself goes out untouched). */
async function errorOf(response: Response): Promise<string | undefined> {
  if (!response.headers.get("content-type")?.startsWith("application/json")) return undefined;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return typeof body.error === "string" ? body.error.slice(0, 1000) : undefined;
  } catch {
    return undefined;
  }
}

const where = (g: Guarded) => ({
  method: g.method,
  route: g.route,
  action: g.action ?? `${g.method} ${g.route}`,
  objectType: g.object?.type,
  objectId: g.object?.id,
});

// A proxy sends identity with every request: the first one of a person (or of a new role) is their sign-in.
const seen = new Map<string, Role>();

function noteSignIn(p: Principal, peer: string | undefined): void {
  if (p.via !== "proxy" || seen.get(p.user) === p.role) return;
  if (seen.size > 10_000) seen.clear();
  seen.set(p.user, p.role);
  void recordAudit({
    actor: p.user,
    role: p.role,
    method: "GET",
    route: "(proxy)",
    action: "auth.signin",
    remote: peer,
    status: 200,
    detail: `via proxy; groups: ${p.groups.join(", ")}`,
  });
}

/** Mode the server runs in (for pages that show sign-out). */
export const authMode = () => loadEnv().FAULTLINE_AUTH;
