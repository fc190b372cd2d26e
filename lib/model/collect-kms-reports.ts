import type { PluginStatus } from "@/lib/sources/kube/parse-health-message";
import { describeReadProblem, type ReadProblem } from "@/lib/sources/kube/read-problem";
import { REPORTER_CONDITION_PREFIX, type OperatorStatusView } from "@/lib/sources/kube/read-operator-status";
import { writeKey } from "@/lib/sources/kube/report-writes";

// Gathers per-(node, keyID) plugin reports from every operator CR in both designs, so the matrix sees one
// report per pair: the newest by lastChecked, with the loser named in a note rather than silently dropped.

export type KmsReportDesign = "condition" | "typed";

export interface KmsSource {
  /** The CR's resource, e.g. "kubeapiservers". */
  source: string;
  view: OperatorStatusView;
}

export interface KmsReport {
  node: string;
  keyID: string;
  kekID?: string;
  reported: PluginStatus;
  lastChecked: string;
  lastCheckedMs: number;
  /** When the API server recorded the report's last write (its managedFields), if it says. */
  writtenMs?: number;
  detail?: string;
  source: string;
  design: KmsReportDesign;
}

/** A reporter condition whose message could not be read; kept whole so nobody loses the evidence. */
export interface UnparseableMessage {
  node: string;
  source: string;
  raw: string;
  error?: string;
}

/** A report the CR reader had to skip (bad typed entry, bad reporter condition, unreadable status). */
export interface UnreadableReport {
  source: string;
  problem: ReadProblem;
}

export interface CollectedKmsReports {
  reports: KmsReport[];
  unparseable: UnparseableMessage[];
  /** Nodes whose reporter wrote a valid but empty list: alive, yet probing nothing. */
  emptyMessages: { node: string; source: string }[];
  unreadable: UnreadableReport[];
  notes: string[];
}

const TYPED_STATUS: Record<string, PluginStatus> = { Healthy: "healthy", Unhealthy: "unhealthy", Error: "error" };

export function collectKmsReports(sources: readonly KmsSource[]): CollectedKmsReports {
  const collected: CollectedKmsReports = { reports: [], unparseable: [], emptyMessages: [], unreadable: [], notes: [] };
  const newest = new Map<string, KmsReport>();
  for (const { source, view } of sources) {
    const written = (key: string) => {
      const at = view.reportWrites?.[key];
      return at === undefined ? {} : { writtenMs: Date.parse(at) };
    };
    for (const reporter of view.reporterConditions) {
      const { parsed, nodeName: node } = reporter;
      if (parsed.format === "unparseable") {
        collected.unparseable.push({ node, source, raw: parsed.raw, ...(parsed.error ? { error: parsed.error } : {}) });
        continue;
      }
      if (parsed.reports.length === 0) collected.emptyMessages.push({ node, source });
      for (const r of parsed.reports) {
        keepNewest(
          newest,
          { ...r, reported: r.status, node, source, design: "condition", lastCheckedMs: Date.parse(r.lastChecked), ...written(writeKey(node)) },
          collected.notes,
        );
      }
    }
    for (const r of view.typedReports) {
      keepNewest(
        newest,
        {
          node: r.nodeName,
          keyID: r.keyID,
          ...(r.remoteKeyID ? { kekID: r.remoteKeyID } : {}),
          reported: TYPED_STATUS[r.status],
          lastChecked: r.lastCheckedTime,
          lastCheckedMs: Date.parse(r.lastCheckedTime),
          ...written(writeKey(r.nodeName, r.keyID)),
          ...(r.detail ? { detail: r.detail } : {}),
          source,
          design: "typed",
        },
        collected.notes,
      );
    }
    sortProblems(source, view.problems, collected);
  }
  collected.reports = [...newest.values()];
  return collected;
}

function keepNewest(newest: Map<string, KmsReport>, report: KmsReport, notes: string[]): void {
  // Both parts as JSON, so node "a-b" keyID "c" and node "a" keyID "b-c" cannot share a key.
  const key = JSON.stringify([report.node, report.keyID]);
  const held = newest.get(key);
  if (!held) {
    newest.set(key, report);
    return;
  }
  const winner = isNewer(report, held) ? report : held;
  newest.set(key, winner);
  const disagree = held.reported !== report.reported ? `; they disagree (${held.reported} vs ${report.reported})` : "";
  notes.push(
    `${report.node} keyID ${report.keyID}: reported by ${describeOrigin(held)} and ${describeOrigin(report)}${disagree}; kept the newest, ${winner.source}/${winner.design}`,
  );
}

// Ties go to the typed design (the one that shipped), then to the source listed first.
function isNewer(candidate: KmsReport, held: KmsReport): boolean {
  if (candidate.lastCheckedMs !== held.lastCheckedMs) return candidate.lastCheckedMs > held.lastCheckedMs;
  return candidate.design === "typed" && held.design === "condition";
}

function describeOrigin(r: KmsReport): string {
  return `${r.source}/${r.design} (${r.reported} at ${r.lastChecked})`;
}

// What the CR reader skips that would have held health: a reporter condition, a typed entry, or the
// structure around them. Other skipped conditions (NodeInstallerDegraded, ...) say nothing about KMS, and
// a repeated entry lost nothing (the first of the pair is read).
const HEALTH_HOLDERS = new Set(["operator CR", "status", "status.conditions", "status.encryptionStatus", "status.encryptionStatus.healthReports"]);

function losesHealth(problem: ReadProblem): boolean {
  if (problem.kind === "wrong-type") return HEALTH_HOLDERS.has(problem.subject);
  if (problem.kind !== "entry-skipped" || problem.fields.index === null) return false;
  const { list, type } = problem.fields;
  return list === "status.encryptionStatus.healthReports" || (list === "status.conditions" && type !== null && type.startsWith(REPORTER_CONDITION_PREFIX));
}

function sortProblems(source: string, problems: readonly ReadProblem[], collected: CollectedKmsReports): void {
  for (const problem of problems) {
    // Unparseable messages already travel whole, with their raw text, through `unparseable`.
    if (problem.kind === "message-unparseable") continue;
    if (losesHealth(problem)) collected.unreadable.push({ source, problem });
    else collected.notes.push(`${source}: ${describeReadProblem(problem)}`);
  }
}
