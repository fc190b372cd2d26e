import { describe, expect, it } from "vitest";
import { loadCatalog } from "@/lib/catalog/load";
import { answerKeys, checkPath, pathTo, stepsInOrder } from "./walk";

const runbook = loadCatalog().runbooks.find((r) => r.id === "sidecar-not-injected")!;

describe("walking a runbook", () => {
  it("starts at the root when the link has no path", () => {
    expect(checkPath(runbook, undefined)).toEqual({ path: ["A"] });
  });

  it("follows a valid path from a shared link", () => {
    expect(checkPath(runbook, "A.B.C.D.E.E1")).toEqual({ path: ["A", "B", "C", "D", "E", "E1"] });
  });

  it("stops a path at the first step that does not follow, and says why", () => {
    expect(checkPath(runbook, "A.B.E1")).toEqual({ path: ["A", "B"], problem: "step E1 does not follow B; the walk stops at B" });
    expect(checkPath(runbook, "B.C").problem).toBe("the path must start at A, not B");
  });

  it("finds the path that opens a runbook at a given step", () => {
    expect(pathTo(runbook, "E1")).toEqual(["A", "B", "C", "D", "E", "E1"]);
    expect(pathTo(runbook, "nope")).toBeUndefined();
  });

  it("answers Yes and No with y and n, other answers with numbers", () => {
    expect(
      answerKeys([
        { label: "No", to: "X" },
        { label: "Yes", to: "Y" },
      ]),
    ).toEqual(["n", "y"]);
    expect(
      answerKeys([
        { label: "JWT", to: "X" },
        { label: "Certificate", to: "Y" },
      ]),
    ).toEqual(["1", "2"]);
  });

  it("lists every step once for the print view, start first", () => {
    const order = stepsInOrder(runbook).map((n) => n.id);
    expect(order[0]).toBe("A");
    expect(new Set(order).size).toBe(runbook.nodes.length);
  });
});
