import { loadEnv } from "@/lib/env";
import { recordAudit } from "./audit";
import { identify, type HeaderSource, type Identity, type Principal } from "./identify";
import { allows, type Need, type Role } from "./roles";

// THE place where a request's role is checked, for route handlers (lib/http/route.ts) and pages (page.ts) alike,
// and where every state-changing request is written to the audit log with its outcome.

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

export type Access = { ok: true; principal?: Principal; peer?: string } | Extract<Identity, { ok: false }>;

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether `headers` may do what `need` asks. */
export async function checkAccess(headers: HeaderSource, need: Need): Promise<Access> {
  // Probes and machine routes (the webhook, /metrics) answer no person; their tokens are lib/http's.
  if (need === "public" || need === "machine") return { ok: true };
  const identity = await identify(headers);
  if (!identity.ok) return identity;
  noteSignIn(identity.principal, identity.peer);
  if (allows(identity.principal.role, need)) return identity;
  return { ok: false, status: 403, error: refusal(identity.principal, need), user: identity.principal.user, peer: identity.peer };
}

function refusal(p: Principal, need: Role): string {
  return `${p.user} is a ${p.role}; this needs the ${need} role`;
}

/** Runs `act` as the signed-in person when their role allows it, answers 401/403 otherwise; audits changes. */
export async function guard(request: Request, g: Guarded, act: (who: Principal | undefined) => Promise<Response>): Promise<Response> {
  const access = await checkAccess(request.headers, g.need);
  const changes = !READS.has(g.method) && g.need !== "public" && g.need !== "machine";
  if (!access.ok) {
    if (changes) await audit(g, access.user ?? "(unknown)", undefined, access.peer, access.status, access.error);
    return Response.json({ error: access.error }, { status: access.status, headers: { "Cache-Control": "no-store" } });
  }
  const response = await act(access.principal);
  if (changes) await audit(g, access.principal!.user, access.principal!.role, access.peer, response.status);
  return response;
}

function audit(g: Guarded, actor: string, role: string | undefined, remote: string | undefined, status: number, detail?: string) {
  return recordAudit({
    actor,
    role,
    method: g.method,
    route: g.route,
    action: g.action ?? `${g.method} ${g.route}`,
    objectType: g.object?.type,
    objectId: g.object?.id,
    remote,
    status,
    detail,
  });
}

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
