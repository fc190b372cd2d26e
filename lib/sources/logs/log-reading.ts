import type { z } from "zod";
import { LogsConfig } from "@/lib/clusters/config";

// One read of a log: a container's tail through the pods/log API, or a systemd unit's journal through
// systemd-journal-gatewayd. Either it was read (its lines, the bytes that came over the wire) or it was refused,
// with the reason a person can act on ("403 pods "x" is forbidden: ..."). Lines are raw here: the incident's
// evidence cleans them and hides their secrets (lib/incidents/evidence).

export interface LogReading {
  kind: "pod-log" | "journal";
  /** One container's (or its previous instance's) or one unit's reading: reading it again replaces it. */
  key: string;
  /** As the page names it: "kube-apiserver-master-1 kms-plugin-1 (previous instance)". */
  source: string;
  node: string;
  lines: string[];
  /** Bytes read from the source. */
  bytes: number;
  /** Whether the bounds cut it (limitBytes reached). */
  cut: boolean;
  /** Why it could not be read; `lines` is empty then. */
  refused?: string;
}

export type LogSettings = LogsConfig;

/** A cluster's log settings with their defaults filled in. */
export function logSettings(config: z.input<typeof LogsConfig> | undefined): LogSettings {
  return LogsConfig.parse(config ?? {});
}

/** Node names as the incident's members name them: the first part of a subject ("master-1/1", "master-1"). */
export function nodesNamed(subjects: string[], known: ReadonlySet<string>): string[] {
  const named = new Set<string>();
  for (const subject of subjects) {
    const first = subject.split("/")[0];
    if (known.has(first)) named.add(first);
  }
  return [...named].sort();
}

/** The lines of a body: split on newlines, a trailing empty one dropped. */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** A short reason from an error: its message's first line, bounded. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").slice(0, 400) || "unknown error";
}
