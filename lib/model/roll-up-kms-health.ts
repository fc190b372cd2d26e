import { describeReadProblem } from "@/lib/sources/kube/read-problem";
import { clipLine, clipLineKeepingEnd } from "./clip-text";
import type { UnparseableMessage, UnreadableReport } from "./collect-kms-reports";
import type { KmsCell, KmsRollup, KmsRow } from "./kms-types";
import { byNode } from "./by-node";

// The rollup the enhancement calls KMSPluginsDegraded. Its reason and message were never defined
// upstream, so each reason is one line an operator can act on: node, keyID, kekID and the plugin's words.

export const REASON_DETAIL_LIMIT = 1000;
const ID_LIMIT = 100;

export interface RollUpInput {
  rows: KmsRow[];
  cells: KmsCell[];
  unparseable: UnparseableMessage[];
  unreadable: UnreadableReport[];
  nowMs: number;
  thresholdSeconds: number;
}

export function rollUpKmsHealth(input: RollUpInput): KmsRollup {
  const { rows, cells, unparseable, unreadable, nowMs, thresholdSeconds } = input;
  const reasons: string[] = [];
  const cellsOf = byNode(cells);
  const messagesOf = byNode(unparseable);
  // Orphaned rows are skipped: the enhancement shows them but keeps them out of the rollup.
  for (const row of rows.filter((r) => r.present)) {
    const node = id(row.node);
    for (const message of messagesOf(row.node)) {
      reasons.push(`${node}: health message on ${id(message.source)} is unparseable: ${clipLine(message.error ?? "unknown error", REASON_DETAIL_LIMIT)}`);
    }
    const own = cellsOf(row.node);
    for (const cell of own.filter((c) => !c.stale && (c.reported === "unhealthy" || c.reported === "error"))) {
      reasons.push(describeFailingCell(cell));
    }
    reasons.push(...describeStaleCells(node, own, thresholdSeconds));
    if (row.state === "unknown") reasons.push(describeMissing(row, nowMs, thresholdSeconds));
  }
  for (const { source, problem } of unreadable) {
    reasons.push(`${id(source)}: health report unreadable: ${clipLine(describeReadProblem(problem), REASON_DETAIL_LIMIT)}`);
  }
  return { degraded: reasons.length > 0, reasons };
}

export function describeFailingCell(cell: KmsCell): string {
  const kek = cell.kekID ? ` (kekID ${id(cell.kekID)})` : "";
  const detail = cell.detail ? `: ${clipLineKeepingEnd(cell.detail, REASON_DETAIL_LIMIT)}` : "";
  return `${id(cell.node)}: keyID ${id(cell.keyID)}${kek} ${cell.reported}${detail}`;
}

// A node whose every report is old has a dead reporter: one line. A node with some fresh reports has
// a leftover entry: one line per keyID, so the odd one out is named.
function describeStaleCells(node: string, own: KmsCell[], thresholdSeconds: number): string[] {
  const stale = own.filter((c) => c.stale);
  if (stale.length === 0) return [];
  const limit = `(threshold ${thresholdSeconds}s)`;
  if (stale.length === own.length) {
    const newest = stale.reduce((best, c) => (c.ageSeconds < best.ageSeconds ? c : best));
    return [`${node}: report stale: lastChecked ${id(newest.lastChecked)} is ${newest.ageSeconds}s old ${limit}`];
  }
  return stale.map((c) => `${node}: keyID ${id(c.keyID)} report stale: lastChecked ${id(c.lastChecked)} is ${c.ageSeconds}s old ${limit}`);
}

function describeMissing(row: KmsRow, nowMs: number, thresholdSeconds: number): string {
  const waited = row.firstSeen ? Math.round((nowMs - Date.parse(row.firstSeen)) / 1000) : undefined;
  return `${id(row.node)}: no KMS health report ${waited ?? "?"}s after the node was first seen (threshold ${thresholdSeconds}s)`;
}

// Ids come from reporters too (node names from condition types, keyIDs from messages), so they are capped.
function id(text: string): string {
  return clipLine(text, ID_LIMIT);
}
