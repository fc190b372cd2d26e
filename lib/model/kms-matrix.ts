import { clipText } from "./clip-text";
import { collectKmsReports, type CollectedKmsReports, type KmsReport, type UnparseableMessage } from "./collect-kms-reports";
import { compareNatural } from "./natural-order";
import { checkKekAgreement, detectKmsMigration } from "./kek-agreement";
import type { KmsCell, KmsMatrix, KmsMatrixInput, KmsNode, KmsRow } from "./kms-types";
import { rollUpKmsHealth } from "./roll-up-kms-health";
import { byNode } from "./by-node";

// The KMS health model of DESIGN.md "KMS health semantics": one cell per (node, keyID), one row per node,
// and a KMSPluginsDegraded-like rollup. The rules (staleness, cold start, orphans) exist only in the
// enhancement text, so they are implemented here rather than read from any cluster component.

export type { KmsSource } from "./collect-kms-reports";
export type { KmsAgreement, KmsCell, KmsCellStatus, KmsMatrix, KmsMatrixInput, KmsMigration, KmsNode, KmsRollup, KmsRow, KmsRowState } from "./kms-types";

export const DETAIL_LIMIT = 2_000;
const DEFAULT_INTERVAL_SECONDS = 30;
const DEFAULT_STALE_FACTOR = 4;
const DEFAULT_FUTURE_SKEW_SECONDS = 10;

/**
 * The node x plugin matrix, rollup and agreement for ONE API server's reports: kubeapiservers,
 * openshiftapiservers and authentications each run their own KMS plugins, so build one matrix per CR;
 * several sources are merged only as the two designs (condition and typed) of the same server.
 */
export function buildKmsMatrix(input: KmsMatrixInput): KmsMatrix {
  const nowMs = input.now.getTime();
  if (Number.isNaN(nowMs)) throw new RangeError("buildKmsMatrix: now is an invalid Date");
  const notes: string[] = [];
  const intervalSeconds = positiveOr(input.intervalSeconds, DEFAULT_INTERVAL_SECONDS, "intervalSeconds", notes);
  const staleFactor = positiveOr(input.staleFactor, DEFAULT_STALE_FACTOR, "staleFactor", notes);
  const futureSkewSeconds = positiveOr(input.futureSkewSeconds, DEFAULT_FUTURE_SKEW_SECONDS, "futureSkewSeconds", notes, true);
  const thresholdSeconds = staleFactor * intervalSeconds;

  const nodes = indexNodes(input.nodes, notes);
  const collected = collectOnce(input.sources);
  notes.push(...collected.notes);
  if (nodes.size === 0 && collected.reports.length > 0) notes.push("no nodes listed: every report counts as orphaned");

  const cells = collected.reports
    .map((report) => toCell(report, nowMs, thresholdSeconds, futureSkewSeconds, nodes))
    .sort((a, b) => compareNatural(a.node, b.node) || compareNatural(b.keyID, a.keyID));
  const rows = buildRows(nodes, cells, collected.unparseable, collected.emptyMessages, nowMs, thresholdSeconds, notes);
  const hasReports = collected.reports.length > 0 || collected.unparseable.length > 0 || collected.unreadable.length > 0;
  if (!hasReports) {
    notes.push("no KMS health reports in any source; if KMS encryption is not enabled, this matrix does not apply");
  }

  return {
    now: input.now.toISOString(),
    intervalSeconds,
    thresholdSeconds,
    futureSkewSeconds,
    rows,
    cells,
    rollup: rollUpKmsHealth({ rows, cells, unparseable: collected.unparseable, unreadable: collected.unreadable, nowMs, thresholdSeconds }),
    agreement: checkKekAgreement(cells),
    migration: detectKmsMigration(cells),
    unreadable: collected.unreadable,
    hasReports,
    notes,
  };
}

// The monitor builds the matrix every poll from the same CR view until the cluster writes it again: parsing
// 5,000 health messages once per view, not per poll. The collected reports are only read after this.
const collectedOf = new WeakMap<object, { source: string; collected: CollectedKmsReports }>();
function collectOnce(sources: KmsMatrixInput["sources"]): CollectedKmsReports {
  if (sources.length !== 1) return collectKmsReports(sources);
  const [{ source, view }] = sources;
  let kept = collectedOf.get(view);
  if (kept?.source !== source) collectedOf.set(view, (kept = { source, collected: collectKmsReports(sources) }));
  return { ...kept.collected, notes: [...kept.collected.notes] };
}

function toCell(report: KmsReport, nowMs: number, thresholdSeconds: number, skewSeconds: number, nodes: Map<string, KmsNode>): KmsCell {
  const ageSeconds = (nowMs - report.lastCheckedMs) / 1000;
  // The API server stamped the write recently while the report's own clock says long ago: the reporter is alive on
  // a node whose clock is behind, so the report is as fresh as its write.
  const lag = report.writtenMs === undefined ? 0 : (report.writtenMs - report.lastCheckedMs) / 1000;
  // A write stamped in the observer's future is not vouched for: it must not make an old report look fresh.
  const writtenAge = report.writtenMs === undefined ? Infinity : (nowMs - report.writtenMs) / 1000;
  const behind = lag > skewSeconds && writtenAge <= thresholdSeconds && writtenAge >= -skewSeconds;
  const stale = ageSeconds > thresholdSeconds && !behind;
  const detail = report.detail === undefined ? undefined : clipText(report.detail, DETAIL_LIMIT);
  return {
    node: report.node,
    keyID: report.keyID,
    ...(report.kekID ? { kekID: report.kekID } : {}),
    status: stale ? "unknown" : report.reported,
    reported: report.reported,
    lastChecked: report.lastChecked,
    ageSeconds,
    ...(detail ? { detail: detail.text } : {}),
    ...(detail?.clipped ? { truncated: true as const } : {}),
    stale,
    future: -ageSeconds > skewSeconds,
    ...(behind ? { behindSeconds: Math.round(lag) } : {}),
    orphaned: !nodes.has(report.node),
    source: report.source,
    design: report.design,
  };
}

function buildRows(
  nodes: Map<string, KmsNode>,
  cells: KmsCell[],
  unparseable: UnparseableMessage[],
  emptyMessages: { node: string }[],
  nowMs: number,
  thresholdSeconds: number,
  notes: string[],
): KmsRow[] {
  // Workers run no API server, so only control-plane nodes are expected to report; any node that
  // did report gets a row regardless.
  const names = new Set<string>([...nodes.values()].filter((n) => n.controlPlane).map((n) => n.name));
  for (const item of [...cells, ...unparseable, ...emptyMessages]) names.add(item.node);

  const cellsOf = byNode(cells);
  const messagesOf = byNode(unparseable);
  return [...names].sort(compareNatural).map((name): KmsRow => {
    const node = nodes.get(name);
    const own = cellsOf(name);
    const message = messagesOf(name)[0];
    const newest = own.reduce<KmsCell | undefined>((best, c) => (!best || c.ageSeconds < best.ageSeconds ? c : best), undefined);
    const row: KmsRow = {
      node: name,
      present: node !== undefined,
      controlPlane: node?.controlPlane ?? false,
      state: "reporting",
      ...(newest ? { lastChecked: newest.lastChecked } : {}),
      ...(node?.firstSeen ? { firstSeen: node.firstSeen } : {}),
      ...(message ? { unparseable: { raw: message.raw, ...(message.error ? { error: message.error } : {}), source: message.source } } : {}),
    };
    if (!node) row.state = "orphaned";
    // An unreadable message outranks readable ones from another design: something is writing garbage.
    else if (message) row.state = "unparseable";
    else if (newest) row.state = newest.stale ? "stale" : "reporting";
    else row.state = isPastColdStart(node, nowMs, thresholdSeconds, notes) ? "unknown" : "not-yet-observed";
    return row;
  });
}

// Without a firstSeen there is no clock to run out, so the node stays "not yet observed".
function isPastColdStart(node: KmsNode, nowMs: number, thresholdSeconds: number, notes: string[]): boolean {
  if (node.firstSeen === undefined) return false;
  const seenMs = Date.parse(node.firstSeen);
  if (Number.isNaN(seenMs)) {
    notes.push(`node ${node.name}: firstSeen ${JSON.stringify(clipText(node.firstSeen, 60).text)} is not a timestamp`);
    return false;
  }
  return (nowMs - seenMs) / 1000 > thresholdSeconds;
}

// The node list may repeat a name (two watches, a re-list); merge rather than let the last one win.
function indexNodes(list: readonly KmsNode[], notes: string[]): Map<string, KmsNode> {
  const byName = new Map<string, KmsNode>();
  for (const node of list) {
    const held = byName.get(node.name);
    if (!held) {
      byName.set(node.name, { ...node });
      continue;
    }
    notes.push(`node ${node.name} is listed more than once; merged`);
    const seen = [held.firstSeen, node.firstSeen].filter((s): s is string => s !== undefined && !Number.isNaN(Date.parse(s)));
    const earliest = seen.sort((a, b) => Date.parse(a) - Date.parse(b))[0];
    byName.set(node.name, { name: node.name, controlPlane: held.controlPlane || node.controlPlane, ...(earliest ? { firstSeen: earliest } : {}) });
  }
  return byName;
}

function positiveOr(value: number | undefined, fallback: number, name: string, notes: string[], zeroAllowed = false): number {
  if (value === undefined) return fallback;
  if (Number.isFinite(value) && (value > 0 || (zeroAllowed && value === 0))) return value;
  notes.push(`${name} ${value} is not a usable number; using ${fallback}`);
  return fallback;
}
