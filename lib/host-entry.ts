// A host entry of FAULTLINE_ALLOWED_HOSTS, beside lib/env.ts which reads it and lib/http/forgery.ts which
// enforces it (moved from forgery.ts so lib/env.ts imports nothing from lib/http).

export type Scheme = "http" | "https";

/**
 * A host entry ("name", "name:port", "[v6]", "[v6]:port", "::1", each optionally after "https://" or "http://")
 * as scheme, name and port; null when it is none of these. The scheme is the one browsers see (a TLS proxy).
 */
export function parseHostEntry(entry: string): { scheme?: Scheme; name: string; port?: number } | null {
  const scheme = /^(https?):\/\//i.exec(entry.trim())?.[1].toLowerCase() as Scheme | undefined;
  const rest = scheme ? entry.trim().slice(scheme.length + 3) : entry.trim();
  const m = /^(?:\[([0-9a-f:.]+)\]|([0-9a-f]*:[0-9a-f:.]+)|([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?))(?::(\d{1,5}))?$/i.exec(rest);
  if (!m || (m[2] && m[4])) return null;
  const port = m[4] === undefined ? undefined : Number(m[4]);
  if (port !== undefined && (port < 1 || port > 65535)) return null;
  return { scheme, name: (m[1] ?? m[2] ?? m[3]).toLowerCase(), port };
}
