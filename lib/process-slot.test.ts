import { describe, expect, it } from "vitest";
import { processSlot } from "./process-slot";

describe("processSlot", () => {
  it("is empty until set, then holds the value", () => {
    const slot = processSlot<number>("test.empty-then-set");
    expect(slot.get()).toBeUndefined();
    expect(slot.set(7)).toBe(7);
    expect(slot.get()).toBe(7);
  });

  it("makes the value once: later calls get the first one", () => {
    const slot = processSlot<{ made: number }>("test.once");
    let made = 0;
    const first = slot.getOrCreate(() => ({ made: ++made }));
    const second = slot.getOrCreate(() => ({ made: ++made }));
    expect(second).toBe(first);
    expect(made).toBe(1);
  });

  it("is shared by every slot of the same name, as another copy of a module would make it", () => {
    const a = processSlot<Map<string, number>>("test.shared");
    const b = processSlot<Map<string, number>>("test.shared");
    a.getOrCreate(() => new Map()).set("x", 1);
    expect(b.get()?.get("x")).toBe(1);
    expect(processSlot<Map<string, number>>("test.other").get()).toBeUndefined();
  });

  it("lives on globalThis under the registered symbol faultline.<name>", () => {
    const slot = processSlot<string>("test.symbol");
    slot.set("here");
    expect(Reflect.get(globalThis, Symbol.for("faultline.test.symbol"))).toBe("here");
  });

  it("makes nothing when making throws, so a later call tries again", () => {
    const slot = processSlot<string>("test.throws");
    expect(() =>
      slot.getOrCreate(() => {
        throw new Error("not yet");
      }),
    ).toThrow("not yet");
    expect(slot.get()).toBeUndefined();
    expect(slot.getOrCreate(() => "now")).toBe("now");
  });
});
