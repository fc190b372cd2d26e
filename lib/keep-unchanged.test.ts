import { describe, expect, it } from "vitest";
import { keepUnchanged } from "./keep-unchanged";

describe("keepUnchanged", () => {
  const previous = {
    checkedAt: "t1",
    matrix: {
      cells: [
        { node: "a", status: "ok" },
        { node: "b", status: "ok" },
      ],
    },
    signals: [{ id: "s", state: "ok" }],
  };

  it("hands back the previous document when nothing changed", () => {
    const next = structuredClone(previous);
    expect(keepUnchanged(previous, next)).toBe(previous);
  });

  it("keeps the unchanged parts and carries the changed ones", () => {
    const next = structuredClone(previous);
    next.checkedAt = "t2";
    next.matrix.cells[1].status = "error";
    const kept = keepUnchanged(previous, next);
    expect(kept).toEqual(next);
    expect(kept).not.toBe(previous);
    expect(kept.signals).toBe(previous.signals);
    expect(kept.matrix).not.toBe(previous.matrix);
    expect(kept.matrix.cells[0]).toBe(previous.matrix.cells[0]);
    expect(kept.matrix.cells[1]).toEqual({ node: "b", status: "error" });
  });

  it("sees an added or removed key or item as a change", () => {
    expect(keepUnchanged({ a: 1 }, { a: 1, b: undefined })).toEqual({ a: 1, b: undefined });
    expect(keepUnchanged({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
    const items = [1, 2];
    expect(keepUnchanged({ items }, { items: [1, 2, 3] }).items).toEqual([1, 2, 3]);
    expect(keepUnchanged({ items }, { items: [1] }).items).toEqual([1]);
  });

  it("takes the new value when the kinds differ, and leaves class instances alone", () => {
    expect(keepUnchanged({ a: [1] }, { a: { 0: 1 } })).toEqual({ a: { 0: 1 } });
    const when = new Date(0);
    const next = { when: new Date(0) };
    expect(keepUnchanged({ when }, next).when).toBe(next.when);
  });
});
