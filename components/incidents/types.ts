import type { IncidentSummary } from "@/lib/incidents/history/queries";
import type { RecordedStep } from "@/lib/incidents/sessions/runbook-sessions";
import type { Suggestion } from "@/lib/incidents/suspects/suggest";
import type { Jsonify } from "@/lib/views/json";

// The incidents API's JSON as the browser receives it (dates as ISO strings).

export type IncidentRow = Jsonify<IncidentSummary>;

/** A page of GET /api/v1/incidents: its rows, the cursor of the next page, incidents per status. */
export interface IncidentListView {
  incidents: IncidentRow[];
  next: string | null;
  counts: { open: number; acknowledged: number; resolved: number };
}

export interface SuspectView {
  id: string;
  title: string;
  score: number;
  reason: string;
  signals: string[];
  startupBlock: string;
  dataLoss: string;
  linkedBy: string[];
  /** Absent on suspects ranked before the diagnosis gave confidences. */
  confidence?: number;
  supports?: string[];
  contradicts?: string[];
  undecided?: { with: string; withTitle: string; question: string; runbook?: { id: string; title: string; node: string; path?: string[] } };
}

export type RecordedStepView = Jsonify<RecordedStep>;

export interface SessionView {
  id: number;
  runbookId: string;
  startedAt: string;
  startedBy: string;
  finishedAt: string | null;
  outcome: string | null;
  path: string[];
  steps: RecordedStepView[];
}

export interface TimelineEvent {
  id: number;
  at: string;
  kind: string;
  actor: string;
  summary: string;
  payload: Record<string, unknown>;
}

export interface MemberView {
  id: number;
  signal: string;
  subject: string;
  source: string;
  state: string;
  detail: string;
  open: boolean;
  joinedAt: string;
  changedAt: string;
}

export interface IncidentDetailView {
  incident: Omit<IncidentRow, "members" | "topSuspect"> & {
    acknowledgedBy: string | null;
    resolvedBy: string | null;
    resolution: string | null;
    updatedAt: string;
  };
  members: MemberView[];
  timeline: TimelineEvent[];
  timelineTruncated: boolean;
  /** The latest events saying a delivery left alerts out (max_alerts) or had alerts refused, newest first. */
  alertGaps: TimelineEvent[];
  suspects: SuspectView[];
  sessions: SessionView[];
  live: {
    signals: { signal: string; subject: string; state: string; detail: string }[];
    suggestions: { sessionId: number; node: string; suggestion: Suggestion | null }[];
  };
}
