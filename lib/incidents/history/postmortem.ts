import { formatConfidence } from "@/lib/diagnosis/confidence";
import type { IncidentDetail } from "./queries";
import type { StoredSuspect } from "../stored";

// The postmortem export: summary, timeline, the path taken through runbooks with the evidence, suspects.
// Text that came from people or alerts is escaped, so the Markdown renders as written and carries no HTML.

export function escapeMarkdown(text: unknown): string {
  return String(text ?? "")
    .replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`)
    .replace(/&/g, "&amp;")
    .replace(/\r?\n/g, " ");
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().replace(".000Z", "Z") : "-");

function duration(from: Date, to: Date): string {
  const s = Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h ${m}m` : m ? `${m}m ${s % 60}s` : `${s}s`;
}

function compactEvidence(evidence: unknown): string {
  if (evidence === null || evidence === undefined) return "";
  const text = typeof evidence === "string" ? evidence : JSON.stringify(evidence);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

export function renderMarkdown(detail: IncidentDetail, now: Date = new Date()): string {
  const { incident, members, timeline, sessions, suspects } = detail;
  const e = escapeMarkdown;
  const lines: string[] = [
    `# Incident ${incident.id}: ${e(incident.title)}`,
    "",
    "## Summary",
    "",
    `- Cluster: ${e(incident.cluster)}`,
    `- Severity: ${incident.severity}; status: ${incident.status}${incident.reopenCount ? ` (reopened ${incident.reopenCount}×)` : ""}`,
    `- Opened: ${iso(incident.openedAt)} (by ${incident.source === "alert" ? "an alert" : "the live signals"})`,
    `- Acknowledged: ${incident.acknowledgedAt ? `${iso(incident.acknowledgedAt)} by ${e(incident.acknowledgedBy)}` : "-"}`,
    `- Resolved: ${incident.resolvedAt ? `${iso(incident.resolvedAt)} by ${e(incident.resolvedBy)}${incident.resolution ? `: ${e(incident.resolution)}` : ""}` : "-"}`,
    `- Duration: ${duration(incident.openedAt, incident.resolvedAt ?? now)}${incident.resolvedAt ? "" : " so far"}`,
    `- Signals: ${members.map((m) => `${e(m.signal)} on ${e(m.subject)} (${m.state})`).join("; ")}`,
    ...detail.unreadable.map((reason) => `- Left out: ${e(reason)}`),
    "",
    "## Suspects",
    "",
    ...(suspects.length ? suspects.flatMap((s, i) => suspectLines(s, i, e, suspects.length)) : ["None ranked."]),
    "",
    "## Runbooks followed",
    "",
  ];
  if (sessions.length === 0) lines.push("None.", "");
  for (const session of sessions) {
    lines.push(`### ${e(session.runbookId)} (session ${session.id}), started ${iso(session.startedAt)} by ${e(session.startedBy)}`, "");
    for (const step of session.steps) {
      const suggestion = step.suggested
        ? ` Live data suggested **${e(step.suggested.answer)}** from ${e(step.suggested.signal)} (${step.suggested.state}: ${e(step.suggested.evidence.map((x) => `${x.subject}: ${x.detail}`).join("; "))})${step.followedSuggestion === false ? "; the on-call chose otherwise" : ""}.`
        : "";
      lines.push(
        `${step.index + 1}. ${e(step.node)} ${e(step.question)}: **${e(step.answer ?? "next")}** (${e(step.actor)}, ${iso(step.at)}).${suggestion}${step.note ? ` Note: ${e(step.note)}` : ""}${step.evidence ? ` Evidence: \`${e(compactEvidence(step.evidence))}\`` : ""}`,
      );
    }
    lines.push(
      "",
      session.finishedAt ? `Ended at ${e(session.outcome)} (${iso(session.finishedAt)}).` : `Not finished; path so far: ${session.path.map(e).join(" → ")}.`,
      "",
    );
  }
  lines.push("## Timeline", "", "| time (UTC) | who | what |", "|---|---|---|");
  for (const event of timeline) lines.push(`| ${iso(event.at)} | ${e(event.actor)} | ${e(event.kind)}: ${e(event.summary)} |`);
  if (detail.timelineTruncated) lines.push("", "Older events are left out; the JSON export and the API have them.");
  return `${lines.join("\n")}\n`;
}

export function renderJson(detail: IncidentDetail) {
  return { exportedAt: new Date().toISOString(), ...detail };
}

/** One suspect in the postmortem: how sure, and the evidence for and against it (older records have only a reason). */
function suspectLines(s: StoredSuspect, i: number, e: (text: string) => string, count: number): string[] {
  const sure = typeof s.confidence === "number" ? ` (${formatConfidence(s.confidence, count)})` : "";
  const lines = [`${i + 1}. **${e(s.title)}** (\`${s.id}\`)${sure}: ${e(s.reason)}`];
  if (i >= 3) return lines;
  for (const text of (s.supports ?? []).slice(1, 4)) lines.push(`   - for: ${e(text)}`);
  for (const text of (s.contradicts ?? []).slice(0, 3)) lines.push(`   - against: ${e(text)}`);
  if (s.undecided) lines.push(`   - ${s.undecided.likely ? "does not rule out" : "cannot tell from"} ${e(s.undecided.withTitle)}: ${e(s.undecided.question)}`);
  for (const f of s.facets ?? []) lines.push(`   - the same outage seen as: ${e(f.title)} (\`${f.id}\`, ${formatConfidence(f.confidence)} of the evidence)`);
  return lines;
}
