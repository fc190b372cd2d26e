import { describe, expect, it } from "vitest";
import { SIGNAL_IDS } from "@/lib/signals/signal-model";
import { COMPONENTS } from "./component-cards";

describe("component cards on the health page", () => {
  it("show every signal Faultline emits on exactly one card", () => {
    const cards = (id: string) => COMPONENTS.filter((c) => c.prefixes.some((p) => id.startsWith(p))).map((c) => c.name);
    expect(SIGNAL_IDS.filter((id) => cards(id).length !== 1).map((id) => `${id}: ${cards(id).join(", ") || "no card"}`)).toEqual([]);
  });
});
