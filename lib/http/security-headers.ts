import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";

// The headers every response carries, pages, API, assets, errors and the edge's own refusals alike. Scripts run
// only with this request's nonce (Next.js reads it from the request's Content-Security-Policy header and puts
// it on its own scripts and styles); nothing may frame a page; nothing is sniffed; no referrer leaves the site.

/** A fresh, unguessable nonce for one request. */
export function newNonce(): string {
  return randomBytes(18).toString("base64");
}

/**
 * The policy for one response. `styleHashes`: the <style> blocks of the pre-rendered diagrams (ADR 4), which
 * reach the page as markup and so cannot carry a per-request nonce. Style attributes (React's style={{}} and the
 * diagrams' own) are allowed: they can hold no selector, and url() in them is still bound by img-src.
 */
export function contentSecurityPolicy(nonce: string, opts: { styleHashes?: string[]; tls?: boolean } = {}): string {
  const hashes = (opts.styleHashes ?? []).map((h) => ` '${h}'`).join("");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'${hashes}`,
    `style-src-elem 'self' 'nonce-${nonce}'${hashes}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(opts.tls ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** SHA-256 CSP sources of the <style> blocks in the SVG files of `dir` (the pre-rendered diagrams). */
export function svgStyleHashes(dir: string): string[] {
  const hashes = new Set<string>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".svg"));
  } catch {
    return [];
  }
  for (const file of files) {
    for (const m of readFileSync(path.join(dir, file), "utf8").matchAll(/<style>([\s\S]*?)<\/style>/g)) {
      hashes.add(`sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}`);
    }
  }
  return [...hashes].sort();
}

/**
 * Sets the headers on `res` and hands the nonce to Next.js through the request's own CSP header (a client's
 * header of that name is replaced: only the server chooses the policy).
 */
export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse, styleHashes: string[] = []): void {
  const tls = "encrypted" in req.socket && Boolean(req.socket.encrypted);
  const policy = contentSecurityPolicy(newNonce(), { styleHashes, tls });
  req.headers["content-security-policy"] = policy;
  delete req.headers["content-security-policy-report-only"];
  res.setHeader("Content-Security-Policy", policy);
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  if (tls) res.setHeader("Strict-Transport-Security", "max-age=31536000");
}
