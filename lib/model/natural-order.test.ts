import { describe, expect, it } from "vitest";
import { compareNatural } from "./natural-order";

describe("compareNatural", () => {
  it("orders numbers inside names by value", () => {
    expect(["master-10", "master-2", "master-1", "master-02", "worker-0"].sort(compareNatural)).toEqual([
      "master-1",
      "master-02",
      "master-2",
      "master-10",
      "worker-0",
    ]);
  });

  it("handles numbers too long for a double, and stays total on ties", () => {
    expect(["100000000000000000001", "100000000000000000000", "9"].sort(compareNatural)).toEqual(["9", "100000000000000000000", "100000000000000000001"]);
    expect(compareNatural("01", "1")).not.toBe(0);
    expect(compareNatural("a", "a")).toBe(0);
    expect(compareNatural("", "a")).toBeLessThan(0);
  });
});
