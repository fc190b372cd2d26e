import { describe, expect, it } from "vitest";
import { escapeSlack, jsonBody, slackBody, type NotificationSnapshot } from "./payload";

const snapshot: NotificationSnapshot = {
  kind: "opened",
  idempotencyKey: "faultline-7-42-pager",
  occurredAt: "2026-11-23T15:00:00.000Z",
  actor: "alertmanager",
  summary: "opened: <!channel> & friends",
  incident: {
    id: 7,
    title: "KMS <@U123> down & <https://evil.example|click>",
    status: "open",
    severity: "critical",
    cluster: "prod",
    link: "https://faultline.example.org/incidents/7",
    clusterLink: "https://faultline.example.org/clusters/prod",
  },
  suspects: [{ id: "openbao-sealed", title: "OpenBao sealed", confidence: 0.996, link: "https://faultline.example.org/catalog/openbao-sealed" }],
  runbook: {
    id: "openbao-sealed-or-unreachable",
    title: "OpenBao sealed",
    link: "https://faultline.example.org/runbooks/openbao-sealed-or-unreachable?path=A",
  },
};

describe("notification bodies", () => {
  it("Slack's form escapes &, < and > in text from outside, so a title cannot mention @channel or plant a link", () => {
    const body = slackBody(snapshot);
    const all = JSON.stringify(body);
    expect(all).not.toContain("<!channel>");
    expect(all).not.toContain("<@U123>");
    expect(all).not.toContain("<https://evil.example");
    expect(body.text).toContain("KMS &lt;@U123&gt; down &amp; &lt;https://evil.example|click&gt;");
    // Faultline's own links stay links.
    expect(all).toContain("<https://faultline.example.org/incidents/7|Incident #7 opened:");
    expect(all).toContain("<https://faultline.example.org/catalog/openbao-sealed|OpenBao sealed> (>99%)");
    expect(all).toContain("<https://faultline.example.org/clusters/prod|prod>");
    expect(escapeSlack("a\u0000b")).toBe("a\uFFFDb");
  });

  it("the JSON form carries the kind, incident link, top suspects, runbook link and the idempotency key", () => {
    expect(jsonBody(snapshot)).toMatchObject({
      version: 1,
      kind: "opened",
      idempotencyKey: "faultline-7-42-pager",
      incident: { id: 7, link: "https://faultline.example.org/incidents/7" },
      suspects: [{ id: "openbao-sealed", confidence: 0.996 }],
      runbook: { link: expect.stringContaining("/runbooks/openbao-sealed-or-unreachable") },
    });
  });
});
