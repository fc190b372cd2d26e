import { describe, expect, it } from "vitest";
import { createRouteLabeler } from "./route-label";

const label = createRouteLabeler({
  staticRoutes: [
    { page: "/", regex: "^/(?:/)?$" },
    { page: "/catalog", regex: "^/catalog(?:/)?$" },
  ],
  dynamicRoutes: [{ page: "/catalog/[id]", regex: "^/catalog/([^/]+?)(?:/)?$" }],
});

describe("route labels for metrics", () => {
  it("maps concrete paths to their route pattern", () => {
    expect(label("/catalog/openbao-sealed")).toBe("/catalog/[id]");
    expect(label("/catalog/")).toBe("/catalog");
    expect(label("/")).toBe("/");
  });

  it("keeps the label set bounded for unknown paths and assets", () => {
    expect(label("/wp-admin/setup.php")).toBe("unmatched");
    expect(label("/_next/static/chunks/abc123.js")).toBe("/_next/static");
    expect(label("/_next/image")).toBe("/_next/other");
  });
});
