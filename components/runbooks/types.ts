import type { RunbookNode } from "@/lib/runbooks/schema";

/** What the browser gets of a runbook: no file paths, no raw chart. */
export interface RunbookClientData {
  id: string;
  title: string;
  root: string;
  nodes: RunbookNode[];
}

export type Titles = Record<string, string>;
