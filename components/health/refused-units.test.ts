import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RefusedUnits } from "./refused-units";

const html = (health: Parameters<typeof RefusedUnits>[0]["health"]) => renderToStaticMarkup(createElement(RefusedUnits, { health }));

describe("refused units on the health page", () => {
  it("shows each refused signal as a problem of that signal, and each cleaned source", () => {
    const out = html({
      refused: [
        { unit: "kms.plugin.unhealthy on master-9/1", reason: "index row size 8048 exceeds btree version 4 maximum 2704", stage: "store" },
        { unit: "kms.plugin.unhealthy on master-9/1", reason: "index row size 8048 exceeds btree version 4 maximum 2704", stage: "judge" },
      ],
      sources: [
        { name: "kubeapiserver", up: true, cleaned: "4 characters replaced (U+0000, U+D800)" },
        { name: "nodes", up: true },
      ],
    });
    expect(out).toContain("could not store: kms.plugin.unhealthy on master-9/1</strong> — index row size 8048");
    expect(out).toContain("could not judge: kms.plugin.unhealthy on master-9/1");
    expect(out).toContain("<strong>kubeapiserver</strong> sent text that cannot be stored or shown: 4 characters replaced (U+0000, U+D800)");
    expect(out).not.toContain("nodes");
  });

  it("shows nothing when every unit went through", () => {
    expect(html({ sources: [{ name: "nodes", up: true }] })).toBe("");
  });
});
