import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AlertGaps } from "./alert-gaps";
import type { TimelineEvent } from "./types";

// The incident page's notice that a delivery did not bring its whole group.

const event = (kind: string, summary: string, payload: Record<string, unknown> = {}): TimelineEvent => ({
  id: 7,
  at: "2026-11-22T12:00:00.000Z",
  kind,
  actor: "alertmanager",
  summary,
  payload,
  step: null,
});

describe("AlertGaps", () => {
  it("says how many alerts Alertmanager left out of the group", () => {
    const html = renderToStaticMarkup(
      createElement(AlertGaps, {
        gaps: [event("alerts_truncated", "Alertmanager left out 70 alerts of this group (it sent 50 alerts; raise max_alerts to receive them)")],
      }),
    );
    expect(html).toContain('data-testid="alert-gaps"');
    expect(html).toContain("Alertmanager left out 70 alerts of this group");
    expect(html).toContain("max_alerts: 0 sends whole groups");
  });

  it("lists the refused alerts with their reasons, and how many more there were", () => {
    const shown = [{ index: 3, alert: "DiskFull", fields: { "alerts.3.startsAt": ["must be an RFC 3339 time"] } }];
    const html = renderToStaticMarkup(
      createElement(AlertGaps, { gaps: [event("alerts_refused", "Faultline refused 4 alerts of this group", { refused: 4, shown })] }),
    );
    expect(html).toContain("alert 3 (DiskFull): alerts.3.startsAt must be an RFC 3339 time");
    expect(html).toContain("and 3 more");
  });

  it("shows nothing when every delivery was whole", () => {
    expect(renderToStaticMarkup(createElement(AlertGaps, { gaps: [] }))).toBe("");
  });
});
