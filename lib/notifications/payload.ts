import { cleanText } from "@/lib/text/outside-text";
import type { NotificationKind } from "@/lib/notify-config";

// The two bodies a receiver can ask for: Faultline's own JSON, and Slack's incoming-webhook form ({ text, blocks }).
// Pure: what the worker sends is built from a snapshot of the incident read at the first attempt (render.ts).

export interface NotificationSnapshot {
  kind: NotificationKind;
  idempotencyKey: string;
  /** When the change happened (its timeline event's time). */
  occurredAt: string;
  /** Who made the change and the timeline's line for it. */
  actor: string;
  summary: string;
  /** `clusterLink`: the cluster's page, null when Faultline does not watch the cluster (an alert may name any). */
  incident: { id: number; title: string; status: string; severity: string; cluster: string; link: string; clusterLink: string | null };
  /** The top 3 suspects, best first. */
  suspects: { id: string; title: string; confidence: number | null; link: string }[];
  /** The runbook that reaches the top suspect (the fewest steps), when one does. */
  runbook: { id: string; title: string; link: string } | null;
}

export const KIND_TEXT: Record<NotificationKind, string> = {
  opened: "opened",
  acknowledged: "acknowledged",
  resolved: "resolved",
  reopened: "reopened",
  suspect_changed: "top suspect changed",
};

/** Faultline's generic JSON body (docs/notifications.md). */
export function jsonBody(s: NotificationSnapshot): Record<string, unknown> {
  return { version: 1, source: "faultline", ...s };
}

/** Slack's mrkdwn treats &, < and > as markup (links, @channel); text from outside must not become markup. */
export function escapeSlack(text: string): string {
  return cleanText(text, 3000).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const percent = (c: number | null) => (c === null ? "" : c >= 0.995 ? " (>99%)" : c < 0.01 ? " (<1%)" : ` (${Math.round(c * 100)}%)`);

/** A body for a Slack incoming webhook (or a Slack-compatible one: Mattermost, Rocket.Chat): a fallback text and blocks. */
export function slackBody(s: NotificationSnapshot): { text: string; blocks: unknown[] } {
  const i = s.incident;
  const headline = `Incident #${i.id} ${KIND_TEXT[s.kind]}: ${escapeSlack(i.title)}`;
  const suspects = s.suspects.length
    ? s.suspects.map((x, n) => `${n + 1}. <${x.link}|${escapeSlack(x.title)}>${percent(x.confidence)}`).join("\n")
    : "no suspects yet";
  const blocks: unknown[] = [
    { type: "section", text: { type: "mrkdwn", text: `*<${i.link}|${headline}>*\n${escapeSlack(s.summary)}` } },
    {
      type: "section",
      fields: [
        { type: "mrkdwn", text: `*Status*\n${escapeSlack(i.status)}` },
        { type: "mrkdwn", text: `*Severity*\n${escapeSlack(i.severity)}` },
        { type: "mrkdwn", text: `*Cluster*\n${i.clusterLink ? `<${i.clusterLink}|${escapeSlack(i.cluster)}>` : escapeSlack(i.cluster)}` },
        { type: "mrkdwn", text: `*By*\n${escapeSlack(s.actor)}` },
      ],
    },
    { type: "section", text: { type: "mrkdwn", text: `*Top suspects*\n${suspects}` } },
  ];
  if (s.runbook) blocks.push({ type: "section", text: { type: "mrkdwn", text: `*Runbook*: <${s.runbook.link}|${escapeSlack(s.runbook.title)}>` } });
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: `${escapeSlack(s.occurredAt)} · ${escapeSlack(s.idempotencyKey)}` }] });
  return { text: `${headline} (${escapeSlack(i.severity)}, ${escapeSlack(i.cluster)}) ${i.link}`, blocks };
}
