import { parseHostEntry, type Scheme } from "@/lib/host-entry";

// The rules that keep another site from acting through a signed-in (or merely local) browser: a Host the server
// answers to (DNS rebinding), and for every state-changing request a JSON body type (no form or text/plain
// post, which a page can send without asking) from the server's own origin.

export const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type Problem = { status: number; error: string } | null;

// parseHostEntry lives in lib/host-entry.ts: lib/env.ts reads FAULTLINE_ALLOWED_HOSTS with it, and lib/http
// imports lib/auth, which imports lib/env.ts; outside lib/http, no folder cycle forms.
export { parseHostEntry, type Scheme };

/** `name` as a Host header carries it on `port`: brackets around IPv6. */
export function hostHeader(name: string, port: number): string {
  return `${name.includes(":") ? `[${name}]` : name}:${port}`;
}

/**
 * The Host values the server answers to, each with the scheme its pages are seen on when configured (else the
 * connection's): the configured entries, else the bound address and loopback's names.
 */
export function allowedHosts(bound: string, port: number, configured: string[] = []): Map<string, Scheme | undefined> {
  const entries = configured.length > 0 ? configured : [bound, "localhost", "127.0.0.1", "::1"];
  const hosts = new Map<string, Scheme | undefined>();
  for (const entry of entries) {
    const parsed = parseHostEntry(entry);
    if (!parsed) continue;
    // An entry without a port: the scheme's default behind a proxy, else the server's port.
    const on = parsed.port ?? (parsed.scheme === "https" ? 443 : parsed.scheme === "http" ? 80 : port);
    hosts.set(hostHeader(parsed.name, on), parsed.scheme);
    // Browsers leave the default port out of Host.
    if ((on === 80 && parsed.scheme !== "https") || (on === 443 && parsed.scheme === "https"))
      hosts.set(hostHeader(parsed.name, on).replace(/:\d+$/, ""), parsed.scheme);
  }
  return hosts;
}

/** 421 for a Host the server does not answer to (a rebound DNS name), whatever the method. */
export function hostProblem(host: string | undefined, allowed: ReadonlyMap<string, unknown>): Problem {
  if (!host) return { status: 400, error: "the request has no Host header" };
  if (allowed.has(host.toLowerCase())) return null;
  const shown = host.length > 100 ? `${host.slice(0, 100)}…` : host;
  return { status: 421, error: `this server does not answer to the host ${JSON.stringify(shown)}; the names it answers to are set by FAULTLINE_ALLOWED_HOSTS` };
}

/** 415 unless the body is declared JSON; forms and text/plain are what a hostile page can post without CORS. */
export function contentTypeProblem(contentType: string | undefined): Problem {
  const essence = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (essence === "application/json") return null;
  const sent = essence ? `Content-Type ${essence.slice(0, 100)}` : "no Content-Type";
  return { status: 415, error: `a state-changing request must send Content-Type: application/json; this one sent ${sent}` };
}

/** The request's own origin, as the server knows it: its scheme (configured, else the connection's) and its allowed Host. */
export function ownOrigin(host: string, scheme: Scheme): string | null {
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}

/** 403 unless Origin is the server's own, or, without Origin, the browser says Sec-Fetch-Site: same-origin. */
export function originProblem(origin: string | undefined, fetchSite: string | undefined, own: string | null): Problem {
  if (origin === undefined) {
    if (fetchSite === "same-origin") return null;
    const why = fetchSite ? `Sec-Fetch-Site is ${fetchSite.slice(0, 40)}` : "there is neither Origin nor Sec-Fetch-Site";
    return { status: 403, error: `cross-site request refused: ${why}; state-changing requests must come from this site` };
  }
  if (origin === "null") return { status: 403, error: "cross-site request refused: Origin is null (a sandboxed frame, a file or a redirect)" };
  let sent: string | null = null;
  try {
    sent = new URL(origin).origin;
  } catch {
    // not a URL: refused below
  }
  if (sent !== null && sent === own) return null;
  const shown = origin.length > 100 ? `${origin.slice(0, 100)}…` : origin;
  return { status: 403, error: `cross-site request refused: Origin ${JSON.stringify(shown)} is not this site (${own})` };
}
