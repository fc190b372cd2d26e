import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RecoveryStep } from "@/lib/catalog/recovery";
import { WhatNow, type WhatNowSuspect } from "./what-now";

// What the first screen of an incident says about the top suspect and the first thing to do.

const step: RecoveryStep = { title: "Unseal OpenBao", command: { command: "bao operator unseal" }, href: "/runbooks/r?path=A.H1", where: "R, step H1" };
const render = (suspect: WhatNowSuspect | undefined, withStep = step) =>
  renderToStaticMarkup(createElement(WhatNow, { status: "open", suspect, step: withStep, acknowledge: createElement("button", null, "Acknowledge") }));

describe("WhatNow", () => {
  it("names the top suspect with its share and gives its first step with the command to copy", () => {
    const html = render({ id: "openbao-sealed", title: "OpenBao sealed", confidence: 0.97, of: 3 });
    expect(html).toContain("very likely · 97%");
    expect(html).toContain("Unseal OpenBao");
    expect(html).toContain("<code>bao operator unseal</code>");
    expect(html).toContain('aria-label="Copy: bao operator unseal"');
    expect(html).toContain('href="/runbooks/r?path=A.H1"');
    expect(html).toContain(">Acknowledge</button>");
  });

  it("calls a lone suspect the only match, not a certainty", () => {
    const html = render({ id: "a", title: "A", confidence: 1, of: 1 });
    expect(html).toContain("the only match · no other failure mode fits");
    expect(html).not.toMatch(/very likely|&gt;99%/);
  });

  it("when the evidence cannot tell two apart, says so and asks the separating question instead of giving one's fix", () => {
    const html = render({
      id: "a",
      title: "Alpha",
      confidence: 0.5,
      of: 2,
      undecided: { withTitle: "Beta", question: "Does bao status say Sealed: true?", href: "/runbooks/r?path=A.G" },
    });
    expect(html).toContain("Cannot tell between Alpha and Beta");
    expect(html).toContain('<a href="/runbooks/r?path=A.G">Does bao status say Sealed: true?</a>');
    expect(html).not.toContain("Unseal OpenBao");
    expect(html).not.toContain("bao operator unseal");
  });

  it("names a likely cause with its first step, and the question that would rule out the second before it", () => {
    const html = render({
      id: "openbao-sealed",
      title: "OpenBao sealed",
      confidence: 0.8,
      of: 3,
      undecided: { withTitle: "OpenBao unavailable", question: "Does bao status say Sealed: true?", href: "/runbooks/r?path=A.G", likely: true },
    });
    expect(html).not.toContain("Cannot tell");
    expect(html).toContain("To rule out OpenBao unavailable:");
    expect(html).toContain('<a href="/runbooks/r?path=A.G">Does bao status say Sealed: true?</a>');
    expect(html).toContain("<code>bao operator unseal</code>");
  });

  it("gives a step without a command as its text, and says there is no command", () => {
    const html = render(
      { id: "a", title: "A", confidence: 0.9, of: 2 },
      {
        title: "Fix the DNS records",
        text: "Point the name back.",
        href: "/catalog/a",
        where: "the catalog entry",
      },
    );
    expect(html).toContain("Point the name back.");
    expect(html).toContain("No command for this step.");
    expect(html).not.toContain("Copy");
  });

  it("sends a suspect that rose to the top after the page was drawn to its catalog entry for the recovery", () => {
    const html = renderToStaticMarkup(
      createElement(WhatNow, { status: "open", suspect: { id: "a", title: "A", confidence: 0.9, of: 2 }, step: undefined, acknowledge: null }),
    );
    expect(html).toContain('see how to recover on <a href="/catalog/a">its catalog entry</a>');
  });

  it("says when nothing in the catalog fits yet, and still offers Acknowledge", () => {
    const html = render(undefined);
    expect(html).toContain("No failure mode in the catalog matches the signals yet.");
    expect(html).toContain(">Acknowledge</button>");
  });
});
