import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AlertWords } from "./alert-words";
import type { TimelineEvent } from "./types";

// The incident page's notice of the alert words Faultline did not understand.

const received = (id: number, alertname: string, unknownWords: unknown): TimelineEvent => ({
  id,
  at: "2026-11-22T12:00:00.000Z",
  kind: "alert_received",
  actor: "alertmanager",
  summary: `${alertname} on n1 firing`,
  payload: { alertname, unknownWords },
  step: null,
});

describe("AlertWords", () => {
  it("lists each word once, with the alerts that carried it, and escapes what the alert said", () => {
    const html = renderToStaticMarkup(
      createElement(AlertWords, {
        events: [
          received(1, "BaoKmsTrouble", ["BaoKmsTrouble", 'phase="rollout"']),
          received(2, "OpenBaoKMSMetadataProbeFailing", ['status="quota_exhausted"', 'phase="rollout"']),
          received(3, "Evil", ["<script>alert(1)</script>"]),
        ],
      }),
    );
    expect(html).toContain('data-testid="alert-words"');
    expect(html).toContain("<code>BaoKmsTrouble</code></li>");
    expect(html).toContain('<code>phase=&quot;rollout&quot;</code><span class="muted small"> in BaoKmsTrouble, OpenBaoKMSMetadataProbeFailing</span>');
    expect(html).toContain("<code>status=&quot;quota_exhausted&quot;</code>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script>");
  });

  it("shows nothing when every word was understood, or the payload holds none", () => {
    expect(renderToStaticMarkup(createElement(AlertWords, { events: [received(1, "OpenBaoKMSAuthFailures", [])] }))).toBe("");
    expect(renderToStaticMarkup(createElement(AlertWords, { events: [received(1, "Old", undefined)] }))).toBe("");
  });

  it("shows the first 20 words and says how many more there are", () => {
    const words = Array.from({ length: 25 }, (_, i) => `w${i}="x"`);
    const html = renderToStaticMarkup(createElement(AlertWords, { events: [received(1, "Many", words)] }));
    expect(html).toContain("w19=&quot;x&quot;");
    expect(html).not.toContain("w20=&quot;x&quot;");
    expect(html).toContain("and 5 more");
  });
});
