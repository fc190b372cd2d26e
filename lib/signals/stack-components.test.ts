import { describe, expect, it } from "vitest";
import { SIGNAL_IDS } from "./signal-model";
import { STACK_COMPONENTS } from "./stack-components";

describe("the stack's components (health page cards, fleet rows)", () => {
  it("hold every signal Faultline emits in exactly one component", () => {
    const cards = (id: string) => STACK_COMPONENTS.filter((c) => c.prefixes.some((p) => id.startsWith(p))).map((c) => c.name);
    expect(SIGNAL_IDS.filter((id) => cards(id).length !== 1).map((id) => `${id}: ${cards(id).join(", ") || "no card"}`)).toEqual([]);
  });
});
