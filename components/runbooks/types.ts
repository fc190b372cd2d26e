import type { suggestAnswer } from "@/lib/incidents/suspects/suggest";
import type { RunbookNode } from "@/lib/runbooks/schema";

/** What the browser gets of a runbook: no file paths, no raw chart. */
export interface RunbookClientData {
  id: string;
  title: string;
  root: string;
  nodes: RunbookNode[];
}

export type Titles = Record<string, string>;

export type LiveSignal = Parameters<typeof suggestAnswer>[1][number];

/** Incident mode (components/runbooks/incident-walker.tsx): answers are recorded before the walk moves on. */
export interface IncidentWalk {
  signals: LiveSignal[];
  /** Records the answer to `node`; resolves to the session's path after it, rejects with the reason. */
  record: (node: string, answer: string | undefined, note: string | undefined) => Promise<string[]>;
  finished: boolean;
  incidentHref: string;
  liveError?: string;
}
