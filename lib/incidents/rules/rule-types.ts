import type { SignalStatus } from "@/lib/signals/signal-model";

// The shapes the incident rules (rules.ts) and the placement rule (placement.ts) share.

export type SubjectState = SignalStatus | "absent";
export type IncidentStatus = "open" | "acknowledged" | "resolved";
export type Severity = "critical" | "warning" | "info";

/** What the rules remember about one (signal, subject) of a cluster between rounds. */
export interface SubjectMemory {
  signal: string;
  subject: string;
  state: SubjectState;
  /** When the current state began. */
  since: Date;
  /** Consecutive observations in this state, capped at the debounce count. */
  streak: number;
  /** The current run of this state already opened, joined or reopened an incident. */
  handled: boolean;
  detail: string;
  /** When it last turned not-ok, oldest first, only those within the flapping window: a crash loop that never stays down
   *  long enough to debounce still opens an incident (config flapOpenAfter). */
  onsets?: Date[];
}
/** Keyed by member key; holds only states that were not ok at some point (no entry reads as ok). */
export type RuleState = Map<string, SubjectMemory>;

export interface RuleMember {
  memberKey: string;
  signal: string;
  subject: string;
  source: "signal" | "alert";
  healthySince: Date | null;
}
export interface IncidentView {
  id: number;
  status: IncidentStatus;
  openedAt: Date;
  reopenedAt: Date | null;
  resolvedAt: Date | null;
  members: RuleMember[];
  /** Its stored suspects' ids, best first (up to 10): what the rules group and reopen by. */
  suspects?: string[];
  /** Its top suspect while a signal that failure mode needs fires among its members: an open root cause. */
  root?: string;
}

export type Placement = { kind: "member" | "reopen" | "join"; incidentId: number } | { kind: "open" };
