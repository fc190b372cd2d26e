import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// Which methods each route serves, read from the app's own route files: a route handler serves the methods it
// exports (plus HEAD with GET, and OPTIONS, which Next implements itself); a page serves GET and HEAD.

export const HANDLER_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;
export type HandlerMethod = (typeof HANDLER_METHODS)[number];

export interface RouteSpec {
  /** The route pattern as Next names it: /api/v1/incidents/[id]/notes. */
  pattern: string;
  kind: "handler" | "page";
  /** The methods it answers, for the Allow header. */
  allow: string[];
}

const EXPORTED = new RegExp(
  String.raw`export\s+(?:async\s+)?(?:function\s*\*?\s*|const\s+|let\s+|var\s+)(${HANDLER_METHODS.join("|")})\b|export\s*\{([^}]*)\}`,
  "g",
);

/** The HTTP methods a route module's source exports (function, const, or `export { x as GET }`). */
export function exportedMethods(source: string): HandlerMethod[] {
  const found = new Set<HandlerMethod>();
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  for (const m of code.matchAll(EXPORTED)) {
    if (m[1]) found.add(m[1] as HandlerMethod);
    for (const part of m[2]?.split(",") ?? []) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name && (HANDLER_METHODS as readonly string[]).includes(name)) found.add(name as HandlerMethod);
    }
  }
  return HANDLER_METHODS.filter((m) => found.has(m));
}

/** What a route handler answers, given the methods its module exports. */
export function handlerAllow(exported: HandlerMethod[]): string[] {
  const allow = new Set<string>(exported);
  if (allow.has("GET")) allow.add("HEAD");
  allow.add("OPTIONS");
  return HANDLER_METHODS.filter((m) => allow.has(m));
}

export const PAGE_ALLOW = ["GET", "HEAD", "OPTIONS"];

/** Every route.ts and page.tsx under `appDir`, with its pattern and methods. */
export function scanAppRoutes(appDir: string): RouteSpec[] {
  const specs: RouteSpec[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Route groups "(name)" and private folders "_name" add no segment; "_name" folders are not routes.
        if (entry.name.startsWith("_")) continue;
        walk(path.join(dir, entry.name), entry.name.startsWith("(") ? segments : [...segments, entry.name]);
        continue;
      }
      const match = /^(route|page)\.(ts|tsx|js|jsx|mjs)$/.exec(entry.name);
      if (!match) continue;
      const pattern = `/${segments.join("/")}`;
      if (match[1] === "page") specs.push({ pattern, kind: "page", allow: PAGE_ALLOW });
      else specs.push({ pattern, kind: "handler", allow: handlerAllow(exportedMethods(readFileSync(path.join(dir, entry.name), "utf8"))) });
    }
  };
  walk(appDir, []);
  return specs.sort((a, b) => a.pattern.localeCompare(b.pattern));
}
