import type { IncomingHttpHeaders } from "node:http";
import { contentTypeProblem, hostProblem, originProblem, ownOrigin, STATE_CHANGING, type Scheme } from "./forgery";
import { checkMachine, type MachineRoute } from "./machine-token";

// The edge's forgery, rebinding and machine-token rules in the order they apply, from the request line and
// headers alone (no body is read before they pass). The route tables come from scripts/start.ts.

export interface EdgeSecurity {
  /** The Host values the server answers to, with the scheme its pages are seen on if configured (forgery.ts allowedHosts). */
  hosts: ReadonlyMap<string, Scheme | undefined>;
  /** Route pattern -> the machine token it takes (the Alertmanager webhook, /metrics). */
  machines: ReadonlyMap<string, MachineRoute>;
  /** CSP sources of the pre-rendered diagrams' <style> blocks (security-headers.ts). */
  styleHashes?: string[];
  /** Whether sign-in is on (lib/auth), which makes machine tokens required. */
  signInOn?: () => boolean;
}

export interface GuardRefusal {
  status: number;
  error: string;
  /** Which rule refused it, for the audit log: host, machine-token, content-type, cross-site. */
  reason: string;
  headers?: Record<string, string>;
}

/** The refusal for a request, or null when it may go on to the route checks (edge.ts decide). */
export function guard(method: string, pattern: string, headers: IncomingHttpHeaders, tls: boolean, security: EdgeSecurity): GuardRefusal | null {
  const misdirected = hostProblem(headers.host, security.hosts);
  if (misdirected) return { ...misdirected, reason: "host" };
  const machine = checkMachine(security.machines.get(pattern), headers.authorization, security.signInOn?.() ?? false);
  if (!machine.ok) return { status: 401, error: machine.error, reason: "machine-token", headers: { "WWW-Authenticate": 'Bearer realm="faultline"' } };
  if (!STATE_CHANGING.has(method)) return null;
  const type = contentTypeProblem(headers["content-type"]);
  if (type) return { ...type, reason: "content-type" };
  // A machine that showed its token needs no Origin: Alertmanager sends none.
  if (machine.authenticated) return null;
  const fetchSite = typeof headers["sec-fetch-site"] === "string" ? headers["sec-fetch-site"] : undefined;
  const host = headers.host!.toLowerCase();
  const forged = originProblem(headers.origin, fetchSite, ownOrigin(host, security.hosts.get(host) ?? (tls ? "https" : "http")));
  return forged && { ...forged, reason: "cross-site" };
}
