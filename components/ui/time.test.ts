import { describe, expect, it } from "vitest";
import { ago, clock, span, utc } from "./time";

describe("times as the on-call reads them", () => {
  const now = Date.parse("2026-11-23T03:00:00Z");
  const before = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it("say how long ago, in the unit that reads best", () => {
    expect(ago(before(0), now)).toBe("0s ago");
    expect(ago(before(89), now)).toBe("89s ago");
    expect(ago(before(90), now)).toBe("2 min ago");
    expect(ago(before(89 * 60), now)).toBe("89 min ago");
    expect(ago(before(150 * 60), now)).toBe("2 h 30 min ago");
    expect(ago(before(3 * 86400), now)).toBe("3 days ago");
  });

  it("say how long a state has lasted in the same units, a start ahead of the clock as none", () => {
    expect(span(before(42), now)).toBe("42s");
    expect(span(before(150 * 60), now)).toBe("2 h 30 min");
    expect(span(before(3 * 86400), now)).toBe("3 days");
    expect(span(before(-300), now)).toBe("0s");
  });

  it("take the reference time as epoch milliseconds or as the ISO time the server checked at", () => {
    expect(ago(before(42), new Date(now).toISOString())).toBe("42s ago");
  });

  it("read a missing time as never, a browser clock a little behind as just now, and a clock far ahead as in the future", () => {
    expect(ago(undefined, now)).toBe("never");
    expect(ago(null, now)).toBe("never");
    expect(ago(before(-5), now)).toBe("just now");
    expect(ago(before(-300), now)).toBe("300s in the future");
  });

  it("give the exact UTC time beside it", () => {
    expect(utc(before(0))).toBe("2026-11-23 03:00:00 UTC");
    expect(utc(null)).toBe("-");
    expect(clock(before(61))).toBe("02:58:59");
  });
});
