import type { KmsAgreement, KmsCell, KmsMatrix, KmsRow } from "@/lib/model/kms-types";
import type { Signal } from "./signal-model";
import type { ClusterHealth, ServerMatrix } from "./cluster-health";
import { metricsInView } from "./metric-order";

// What the health page shows first, whatever the size of the cluster: every count, the rows that need
// attention (bounded) and the checks that are not passing (bounded); the healthy rows stay on the server and
// come by page (health-rows.ts). Pure and client-safe: the page applies pushes of this view to what it holds.

/** Problem rows in view per matrix; a matrix of at most this many rows is in view whole. */
export const ROWS_IN_VIEW = 50;
/** Signals in view per (id, state); passing checks of an id with more subjects than this are only counted. */
export const SIGNALS_PER_KIND = 20;
/** Rollup reasons, and the nodes named per KEK in the agreement, in view. */
export const REASONS_IN_VIEW = 20;
/** A signal's evidence in view up to this many characters of JSON (the KEK agreement of 5,000 nodes is far more). */
export const EVIDENCE_IN_VIEW = 2_000;

/** A row's class: healthy (every plugin reports healthy and fresh), unhealthy, unknown (stale, silent, clock ahead) or orphaned. */
export type RowClass = "unhealthy" | "unknown" | "orphaned" | "healthy";
export const ROW_CLASSES: RowClass[] = ["unhealthy", "unknown", "orphaned", "healthy"];

export type RowCounts = Record<RowClass, number> & { total: number };

/** A matrix row with its own cells and class: what the rows API and the node API answer. */
export interface HealthRow extends KmsRow {
  class: RowClass;
  cells: KmsCell[];
}

export interface MatrixInView extends KmsMatrix {
  inView: {
    counts: RowCounts;
    /** Rows in view per class (every one when `all`). */
    shown: RowCounts;
    /** Every row is in view (a small matrix). */
    all: boolean;
    reasonsTotal: number;
    /** Every plugin (keyID) of the matrix, those of rows not in view too. */
    keyIDs: string[];
    /** The cursor of the rows API (view=rows&state=problem) that continues after the problem rows in view; null when all are. */
    next: string | null;
  };
}

export type AgreementInView = KmsAgreement & { kekIDs: { kekID: string; nodes: string[]; nodesTotal?: number }[] };

export type HealthInView = Omit<ClusterHealth, "matrix" | "serverMatrices"> & {
  matrix?: MatrixInView;
  serverMatrices: (Omit<ServerMatrix, "matrix"> & { matrix: MatrixInView })[];
  /** Every signal counted by (id, state), those not in view too. */
  signalTally: { id: string; state: Signal["state"]; count: number }[];
  reasonsTotal: number;
};

/** Whether a health (as a push left it) is the summary view: its tally and reason count, and every matrix with its inView. */
export function isHealthInView<T extends ClusterHealth>(health: T): health is T & HealthInView {
  const inView = (matrix: KmsMatrix | undefined) => matrix === undefined || "inView" in matrix;
  return (
    "signalTally" in health &&
    Array.isArray(health.signalTally) &&
    "reasonsTotal" in health &&
    typeof health.reasonsTotal === "number" &&
    inView(health.matrix) &&
    health.serverMatrices.every((m) => inView(m.matrix))
  );
}

/** Each row of a matrix with its cells and class, ordered by class (unhealthy first) and then as the matrix orders nodes. */
export function classifyRows(matrix: KmsMatrix): HealthRow[] {
  const keyIDs = new Set(matrix.cells.map((c) => c.keyID));
  const cellsOf = new Map<string, KmsCell[]>();
  for (const c of matrix.cells) {
    const list = cellsOf.get(c.node);
    if (list) list.push(c);
    else cellsOf.set(c.node, [c]);
  }
  const rows = matrix.rows.map((row, index) => {
    const cells = cellsOf.get(row.node) ?? [];
    return { row: { ...row, class: classOf(row, cells, keyIDs.size), cells }, index };
  });
  rows.sort((a, b) => ROW_CLASSES.indexOf(a.row.class) - ROW_CLASSES.indexOf(b.row.class) || a.index - b.index);
  return rows.map((r) => r.row);
}

function classOf(row: KmsRow, cells: KmsCell[], plugins: number): RowClass {
  if (row.state === "orphaned") return "orphaned";
  if (row.state === "unparseable" || cells.some((c) => c.status === "unhealthy" || c.status === "error")) return "unhealthy";
  // A plugin without a report, a stale one or one dated ahead of the clock: not known to be healthy.
  if (row.state !== "reporting" || cells.length < plugins || cells.some((c) => c.status !== "healthy" || c.future)) return "unknown";
  return "healthy";
}

export function countRows(rows: HealthRow[]): RowCounts {
  const counts: RowCounts = { total: rows.length, unhealthy: 0, unknown: 0, orphaned: 0, healthy: 0 };
  for (const r of rows) counts[r.class] += 1;
  return counts;
}

/** The matrix with only its rows in view: all of a small matrix, else the first ROWS_IN_VIEW problem rows. */
export function viewOfMatrix(matrix: KmsMatrix, rows: HealthRow[] = classifyRows(matrix)): MatrixInView {
  const all = rows.length <= ROWS_IN_VIEW;
  const kept = all ? rows : rows.filter((r) => r.class !== "healthy").slice(0, ROWS_IN_VIEW);
  const nodes = new Set(kept.map((r) => r.node));
  const reasons = matrix.rollup.reasons;
  const problems = rows.length - countRows(rows).healthy;
  const byNode = new Map(matrix.rows.map((r) => [r.node, r]));
  return {
    ...matrix,
    // A small matrix in its own order; else the problem rows worst first, as the rows API pages them.
    rows: all ? matrix.rows : kept.map((r) => byNode.get(r.node)!),
    cells: matrix.cells.filter((c) => nodes.has(c.node)),
    rollup: { ...matrix.rollup, reasons: reasons.slice(0, REASONS_IN_VIEW) },
    agreement: matrix.agreement.map(boundAgreement),
    unreadable: matrix.unreadable.slice(0, REASONS_IN_VIEW),
    inView: {
      counts: countRows(rows),
      shown: countRows(kept),
      all,
      reasonsTotal: reasons.length,
      keyIDs: [...new Set(matrix.cells.map((c) => c.keyID))],
      next: !all && kept.length < problems ? encodeCursor(kept[kept.length - 1]) : null,
    },
  };
}

function boundAgreement(a: KmsAgreement): AgreementInView {
  return {
    ...a,
    kekIDs: a.kekIDs.map((k) => (k.nodes.length > REASONS_IN_VIEW ? { ...k, nodes: k.nodes.slice(0, REASONS_IN_VIEW), nodesTotal: k.nodes.length } : k)),
  };
}

/** A cursor: the class and node of the last row given, opaque to clients (base64url JSON). */
export function encodeCursor(row: Pick<HealthRow, "class" | "node">): string {
  const bytes = new TextEncoder().encode(JSON.stringify([row.class, row.node]));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
}

/** The position a cursor names, or undefined when it is not one this API made. */
export function decodeCursor(cursor: string): { rank: number; node: string } | undefined {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) return undefined;
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value) || value.length !== 2 || typeof value[1] !== "string" || value[1].length === 0) return undefined;
    const rank = ROW_CLASSES.indexOf(value[0] as RowClass);
    return rank < 0 ? undefined : { rank, node: value[1] };
  } catch {
    return undefined;
  }
}

const SEVERITY = ["critical", "warning", "unknown", "ok"];

/** The signals in view (each kind's first SIGNALS_PER_KIND, passing checks only of kinds with few subjects) and the tally of all. */
export function viewOfSignals(signals: Signal[]): { signals: Signal[]; signalTally: HealthInView["signalTally"] } {
  const tally = new Map<string, { id: string; state: Signal["state"]; count: number }>();
  for (const s of signals) {
    const key = `${s.id}\u0000${s.state}`;
    const t = tally.get(key);
    if (t) t.count += 1;
    else tally.set(key, { id: s.id, state: s.state, count: 1 });
  }
  const taken = new Map<string, number>();
  const kept = signals
    .filter((s) => {
      const key = `${s.id}\u0000${s.state}`;
      if (s.state === "ok" && tally.get(key)!.count > SIGNALS_PER_KIND) return false;
      const n = (taken.get(key) ?? 0) + 1;
      taken.set(key, n);
      return n <= SIGNALS_PER_KIND;
    })
    .map(boundEvidence);
  const signalTally = [...tally.values()].sort((a, b) => SEVERITY.indexOf(a.state) - SEVERITY.indexOf(b.state) || a.id.localeCompare(b.id));
  return { signals: kept, signalTally };
}

/** Evidence or a detail too large for the summary is named or cut, not carried: the whole document has them. */
function boundEvidence(signal: Signal): Signal {
  const detail =
    signal.detail.length > EVIDENCE_IN_VIEW ? `${signal.detail.slice(0, EVIDENCE_IN_VIEW)}… (${signal.detail.length} characters in all)` : signal.detail;
  const size = signal.evidence !== null && typeof signal.evidence === "object" ? JSON.stringify(signal.evidence).length : 0;
  if (size <= EVIDENCE_IN_VIEW && detail === signal.detail) return signal;
  return { ...signal, detail, ...(size > EVIDENCE_IN_VIEW ? { evidence: { omitted: `${size} characters of evidence; GET the whole health for them` } } : {}) };
}

/** The health as the page first shows it: bounded at any cluster size, every count kept. */
export function viewOfHealth(health: ClusterHealth, rowsOf: (m: KmsMatrix) => HealthRow[] = classifyRows): HealthInView {
  const { signals, signalTally } = viewOfSignals(health.signals);
  return {
    ...health,
    matrix: health.matrix ? viewOfMatrix(health.matrix, rowsOf(health.matrix)) : undefined,
    serverMatrices: health.serverMatrices.map((m) => ({ ...m, matrix: viewOfMatrix(m.matrix, rowsOf(m.matrix)) })),
    reasons: health.reasons.slice(0, REASONS_IN_VIEW),
    metrics: metricsInView(health.metrics),
    reasonsTotal: health.reasons.length,
    signals,
    signalTally,
  };
}
