import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SuspectList } from "./suspect-list";
import type { SuspectView } from "./types";

// How sure the page says the diagnosis is.

const suspect = (id: string, confidence: number): SuspectView => ({
  id,
  title: id,
  score: confidence * 10,
  reason: "",
  signals: [],
  startupBlock: "no",
  dataLoss: "no",
  linkedBy: [],
  confidence,
  supports: [`evidence for ${id}`],
  contradicts: [],
});

describe("SuspectList", () => {
  it("words a strong first suspect as very likely, with its share", () => {
    const html = renderToStaticMarkup(createElement(SuspectList, { suspects: [suspect("openbao-sealed", 0.97), suspect("openbao-unavailable", 0.03)] }));
    expect(html).toContain("very likely · 97%");
    expect(html).toContain("unlikely · 3%");
  });

  it("calls a lone suspect the only match, not a certainty: its share of one says nothing of its strength", () => {
    const html = renderToStaticMarkup(createElement(SuspectList, { suspects: [suspect("registry-state-and-checkpoint-replaced", 1)] }));
    expect(html).toContain("the only match · no other failure mode fits");
    expect(html).not.toMatch(/very likely|&gt;99%/);
  });
});
