import { describe, expect, it } from "vitest";
import { clipLine, clipText } from "./clip-text";

describe("clipText and clipLine", () => {
  it("leaves short text alone", () => {
    expect(clipText("abc", 3)).toEqual({ text: "abc", clipped: false });
    expect(clipLine("credential lacks\n decrypt permission", 300)).toBe("credential lacks decrypt permission");
  });

  it("cuts long text, one line with an ellipsis", () => {
    expect(clipText("abcdef", 4)).toEqual({ text: "abcd", clipped: true });
    expect(clipLine("a\nb\tc d e f", 5)).toBe("a b c…");
  });

  it("adds the ellipsis even when flattening whitespace brought the window under the limit", () => {
    expect(clipLine(`${" ".repeat(40)}x${"y".repeat(40)}`, 10)).toBe("xyyyyyyyyy…");
  });

  it("never leaves half a surrogate pair", () => {
    expect(clipText("ab🔑", 3)).toEqual({ text: "ab", clipped: true });
  });
});
