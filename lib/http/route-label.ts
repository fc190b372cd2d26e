// Turns a request path into the route pattern it matched (/catalog/[id], not /catalog/openbao-sealed),
// so metrics keep a bounded set of labels however many distinct URLs are requested.

export interface RouteManifest {
  staticRoutes: { page: string; regex: string }[];
  dynamicRoutes: { page: string; regex: string }[];
}

export type RouteLabeler = (pathname: string) => string;

export function createRouteLabeler(manifest: RouteManifest, extra: string[] = []): RouteLabeler {
  const exact = new Set([...manifest.staticRoutes.map((r) => r.page), ...extra]);
  const patterns = manifest.dynamicRoutes.map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/static/")) return "/_next/static";
    if (pathname.startsWith("/_next/")) return "/_next/other";
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    if (exact.has(trimmed)) return trimmed;
    for (const { page, regex } of patterns) if (regex.test(trimmed)) return page;
    return "unmatched";
  };
}
