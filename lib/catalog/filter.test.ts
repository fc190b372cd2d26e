import { describe, expect, it } from "vitest";
import { filterCatalog, parseCatalogQuery } from "./filter";
import { loadCatalog } from "./load";

const { entries } = loadCatalog();
const query = (text: string) => {
  const parsed = parseCatalogQuery(new URLSearchParams(text));
  if (!parsed.query) throw new Error(JSON.stringify(parsed.errors));
  return parsed.query;
};
const ids = (text: string) => filterCatalog(entries, query(text)).map((e) => e.id);

describe("catalog filters", () => {
  it("combines start-up block and data-loss filters", () => {
    const result = filterCatalog(entries, query("startup=yes&dataLoss=yes"));
    expect(result.length).toBeGreaterThan(0);
    for (const entry of result) {
      expect(entry.kind === "failure-mode" && entry.startupBlock.level).toBe("yes");
      expect(entry.kind === "failure-mode" && entry.dataLoss.level).toBe("yes");
    }
    expect(result.map((e) => e.id)).toContain("transit-key-deleted");
  });

  it("accepts several values for one filter, comma-separated", () => {
    const both = ids("category=openbao-transit,transit-key-material");
    expect(both).toHaveLength(12);
  });

  it("filters by component", () => {
    const webhook = filterCatalog(entries, query("component=webhook"));
    expect(webhook.length).toBeGreaterThan(0);
    expect(webhook.every((e) => e.components.includes("webhook"))).toBe(true);
  });

  it("searches every field, ranking title matches first", () => {
    const jwks = ids("q=JWKS");
    expect(jwks.slice(0, 2).sort()).toEqual(["jwks-or-oidc-discovery-unreachable", "jwks-rotated"]);
    // A word that appears only in the recovery text of its entry.
    expect(ids("q=chrony")).toContain("clock-skew");
    // Signal ids are searchable by their parts.
    expect(ids("q=deletion-allowed")).toContain("transit-key-deleted");
  });

  it("finds snake_case field names as users type them", () => {
    expect(ids("q=min_decryption_version")).toContain("transit-min-decryption-version-raised-early");
  });

  it("sorts by severity with the most severe first", () => {
    const sorted = filterCatalog(entries, query("sort=dataLoss&kind=failure-mode"));
    const first = sorted[0];
    const last = sorted[sorted.length - 1];
    expect(first.kind === "failure-mode" && first.dataLoss.level).toBe("yes");
    expect(last.kind === "failure-mode" && last.dataLoss.level).toBe("no");
  });
});

describe("catalog query validation", () => {
  it("names each bad field", () => {
    const { errors } = parseCatalogQuery(new URLSearchParams("startup=maybe&dataLoss=yes&colour=red"));
    expect(errors).toEqual({
      startup: ["startup must be one of: yes, possible, affected-data, no"],
      colour: [expect.stringContaining("unknown parameter")],
    });
  });

  it("rejects a repeated parameter rather than silently taking one", () => {
    const { errors } = parseCatalogQuery(new URLSearchParams("kind=failure-mode&kind=acceptance-test"));
    expect(errors?.kind?.[0]).toContain("given 2 times");
  });

  it("rejects an over-long search", () => {
    const { errors } = parseCatalogQuery(new URLSearchParams(`q=${"a".repeat(201)}`));
    expect(errors?.q).toBeDefined();
  });
});
