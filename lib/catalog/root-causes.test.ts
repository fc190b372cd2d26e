import { afterEach, describe, expect, it } from "vitest";
import { brokenCatalog, catalogErrors, lineOf } from "@/test/catalog-copy";

// catalog/root-causes.yaml is checked as the rest of the catalog is: each problem named at its line.

describe("a broken root-causes file", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("names a member that is no failure mode, and one that is both a root and a facet, at their lines", () => {
    const copy = brokenCatalog("root-causes.yaml", (t) =>
      t.replace("roots: [beacon-down, bridge-down]", "roots: [beacon-down, bridge-gone, stack-openbao-down]"),
    );
    cleanup = copy.cleanup;
    const line = lineOf(copy.root, "root-causes.yaml", "roots: [beacon-down, bridge-gone");
    expect(catalogErrors(copy.root)).toEqual([
      `catalog/root-causes.yaml:${line}: protection-path-down: "bridge-gone" is not a failure mode of the catalog`,
      `catalog/root-causes.yaml:${line}: protection-path-down: "stack-openbao-down" is a facet in openbao-outage: a failure mode is a root or a facet, not both`,
    ]);
  });
});
