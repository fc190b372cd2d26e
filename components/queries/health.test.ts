import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchClusterHealth, HealthNotReadYet } from "./health";

// The browser's fetch is replaced here (the network is outside this module); the answers are the health
// route's own shapes: 202 { name, summary } before the monitor's first read, the health after.

afterEach(() => vi.unstubAllGlobals());

describe("a cluster's health query", () => {
  it("refuses the 202 'not read yet' answer instead of taking it for a health", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ name: "demo", summary: { state: "unknown", line: "not read yet" } }, { status: 202 }));
    await expect(fetchClusterHealth("demo")).rejects.toBeInstanceOf(HealthNotReadYet);
  });

  it("returns the health with its version, and fails on other errors", async () => {
    vi.stubGlobal("fetch", async () => Response.json({ name: "demo", version: 7, signals: [] }));
    await expect(fetchClusterHealth("demo")).resolves.toMatchObject({ name: "demo", version: 7 });
    vi.stubGlobal("fetch", async () => new Response("no", { status: 503 }));
    await expect(fetchClusterHealth("demo")).rejects.toThrow("HTTP 503");
  });
});
