import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedMethods, HANDLER_METHODS, scanAppRoutes } from "./route-table";

// The edge reads the methods from the route files' source; this holds it to what the modules really export.

const app = path.resolve(import.meta.dirname, "../../app");

describe("route methods", () => {
  it("finds exactly the HTTP methods each route module exports", async () => {
    const handlers = scanAppRoutes(app).filter((s) => s.kind === "handler");
    expect(handlers.length).toBeGreaterThan(20);
    for (const spec of handlers) {
      const mod = (await import(path.join(app, spec.pattern, "route.ts"))) as Record<string, unknown>;
      const real = HANDLER_METHODS.filter((m) => typeof mod[m] === "function");
      expect(
        spec.allow.filter((m) => real.includes(m as (typeof real)[number]) || !["HEAD", "OPTIONS"].includes(m)),
        spec.pattern,
      ).toEqual(real);
    }
  }, 120_000);

  it("reads every way of exporting a handler", () => {
    expect(exportedMethods("export async function POST() {}\nexport const GET = () => 1;\nconst d = 1; export { d as DELETE, x as nope };")).toEqual([
      "GET",
      "POST",
      "DELETE",
    ]);
    expect(exportedMethods("export function GETTER() {}\n// export function PUT\n/* export const PATCH = 1 */")).toEqual([]);
  });
});
