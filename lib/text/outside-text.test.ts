import { describe, expect, it } from "vitest";
import { addReport, CLIPPED_MARKER, cleanText, cleanValue, depthOf, describeReport, emptyReport, isClean, REPLACEMENT, TOO_DEEP_MARKER } from "./outside-text";

describe("text from outside", () => {
  it("replaces what PostgreSQL or a page cannot hold, visibly, and counts it", () => {
    const report = emptyReport();
    expect(cleanText("plugin\u0000 said \ud800 and \udc00 then \u0007", 100, report)).toBe(
      `plugin${REPLACEMENT} said ${REPLACEMENT} and ${REPLACEMENT} then ${REPLACEMENT}`,
    );
    expect(report.replaced).toBe(4);
    expect(describeReport(report)).toBe("4 characters replaced");
  });

  it("keeps what is fine: pairs, tabs, newlines, any script", () => {
    const text = "ключ 🔑\tline\r\nnext 鍵";
    const report = emptyReport();
    expect(cleanText(text, 100, report)).toBe(text);
    expect(report).toEqual({ replaced: 0, clipped: 0, dropped: 0 });
  });

  it("cuts long text with a marker, never between the halves of a pair", () => {
    const report = emptyReport();
    expect(cleanText("ab🔑cd", 3, report)).toBe(`ab${CLIPPED_MARKER}`);
    expect(report.clipped).toBe(1);
  });

  it("caps depth and item counts of a parsed value and cleans keys too", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 3000; i++) deep = [deep];
    const report = emptyReport();
    const cleaned = cleanValue({ "k\u0000": deep, list: Array.from({ length: 10 }, (_, i) => i) }, { maxDepth: 5, maxItems: 4 }, report);
    expect(depthOf(cleaned)).toBe(5);
    expect(JSON.stringify(cleaned)).toContain(TOO_DEEP_MARKER);
    expect((cleaned as { list: number[] }).list).toEqual([0, 1, 2, 3]);
    expect(Object.keys(cleaned as object)).toContain(`k${REPLACEMENT}`);
    expect(report).toEqual({ replaced: 1, clipped: 0, dropped: 7 });
  });

  it("measures depth without recursion", () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(depthOf(deep, 100)).toBe(101);
  });
});

describe("the refused characters, for the log", () => {
  it("names each distinct refused character once, only when asked to", () => {
    const report = { ...emptyReport(), refused: new Set<string>() };
    expect(cleanText("a\u0000b\u0000c\ud800d\u001f", 100, report)).toBe(`a${REPLACEMENT}b${REPLACEMENT}c${REPLACEMENT}d${REPLACEMENT}`);
    expect(describeReport(report)).toBe("4 characters replaced (U+0000, U+D800, U+001F)");
    const total = addReport({ ...emptyReport(), refused: new Set<string>() }, report);
    expect(describeReport(addReport(total, { replaced: 0, clipped: 1, dropped: 0 }))).toBe("4 characters replaced, 1 value clipped (U+0000, U+D800, U+001F)");
  });
});

describe("telling clean input apart without copying it", () => {
  it("says clean only when cleanValue would change nothing", () => {
    const cases: [unknown, boolean][] = [
      [{ a: "ok", list: [1, 2, { b: true, c: null }], at: new Date(0) }, true],
      ["\ud83d\ude00 a pair, a tab\t and a newline\n", true],
      [{ a: "nul\u0000" }, false],
      [{ ["key\ud800"]: 1 }, false],
      [{ big: "x".repeat(17_000) }, false],
      [{ n: Infinity }, false],
      [[1, undefined, 2], false],
      [{ f: () => 1 }, false],
      [Array.from({ length: 2_001 }, (_, i) => i), false],
      [JSON.parse("[".repeat(40) + "]".repeat(40)), false],
    ];
    for (const [value, clean] of cases) {
      const report = emptyReport();
      const cleaned = cleanValue(value, {}, report);
      expect([value, isClean(value)]).toEqual([value, clean]);
      // Where it says clean, cleaning indeed changes nothing.
      if (clean) expect([cleaned, report]).toEqual([value, emptyReport()]);
    }
  });
});
