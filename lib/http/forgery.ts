// The rules that keep another site from acting through a signed-in (or merely local) browser: a Host the server
// answers to (DNS rebinding), and for every state-changing request a JSON body type (no form or text/plain
// post, which a page can send without asking) from the server's own origin.

export const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type Problem = { status: number; error: string } | null;

/** A host entry ("name", "name:port", "[v6]", "[v6]:port", "::1") as name and port; null when it is none of these. */
export function parseHostEntry(entry: string): { name: string; port?: number } | null {
  const m = /^(?:\[([0-9a-f:.]+)\]|([0-9a-f]*:[0-9a-f:.]+)|([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?))(?::(\d{1,5}))?$/i.exec(entry.trim());
  if (!m || (m[2] && m[4])) return null;
  const port = m[4] === undefined ? undefined : Number(m[4]);
  if (port !== undefined && (port < 1 || port > 65535)) return null;
  return { name: (m[1] ?? m[2] ?? m[3]).toLowerCase(), port };
}

/** `name` as a Host header carries it on `port`: brackets around IPv6. */
export function hostHeader(name: string, port: number): string {
  return `${name.includes(":") ? `[${name}]` : name}:${port}`;
}

/** The Host values the server answers to: the configured entries, else the bound address and loopback's names. */
export function allowedHosts(bound: string, port: number, configured: string[] = []): Set<string> {
  const entries = configured.length > 0 ? configured : [bound, "localhost", "127.0.0.1", "::1"];
  const hosts = new Set<string>();
  for (const entry of entries) {
    const parsed = parseHostEntry(entry);
    if (!parsed) continue;
    // An entry without a port answers on the server's; browsers leave out port 80.
    const on = parsed.port ?? port;
    hosts.add(hostHeader(parsed.name, on));
    if (on === 80) hosts.add(hostHeader(parsed.name, 80).replace(/:80$/, ""));
  }
  return hosts;
}

/** 421 for a Host the server does not answer to (a rebound DNS name), whatever the method. */
export function hostProblem(host: string | undefined, allowed: ReadonlySet<string>): Problem {
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

/** The request's own origin, as the server knows it: its scheme and the (allowed) Host it was sent to. */
export function ownOrigin(host: string, tls: boolean): string | null {
  try {
    return new URL(`${tls ? "https" : "http"}://${host}`).origin;
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
