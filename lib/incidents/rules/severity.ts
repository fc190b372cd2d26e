import type { SubjectState, Severity } from "./rule-types";

// Incident severity: what a member's state makes it and when a joining member raises it. Both the one-alert path
// (members/membership.ts) and the set-based alert path (alerts/alert-bulk.ts) raise through `escalation`.

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** Worst first: for sorting. */
export const bySeverity = (a: Severity, b: Severity) => SEVERITY_RANK[a] - SEVERITY_RANK[b];

/** A not-ok signal state's severity: critical stays critical, anything else not ok is a warning. */
export const severityOfState = (state: SubjectState): Severity => (state === "critical" ? "critical" : "warning");

const isSeverity = (value: string): value is Severity => value in SEVERITY_RANK;

/** The first of the worst, or undefined for none. */
export function worstOf<T extends { severity: Severity }>(items: T[]): T | undefined {
  return items.reduce<T | undefined>((w, m) => (!w || bySeverity(m.severity, w.severity) < 0 ? m : w), undefined);
}

export interface Escalation {
  to: Severity;
  /** The severity_changed event's summary and payload. */
  summary: string;
  payload: { from: string; to: Severity };
}

/** How the worst of the joining members raises an incident's severity `current`; undefined when none is worse. */
export function escalation(current: string, joining: { severity: Severity; signal: string; subject: string }[]): Escalation | undefined {
  const worst = worstOf(joining);
  if (!worst || !isSeverity(current) || bySeverity(worst.severity, current) >= 0) return undefined;
  return {
    to: worst.severity,
    summary: `severity ${current} → ${worst.severity} (${worst.signal} on ${worst.subject})`,
    payload: { from: current, to: worst.severity },
  };
}
