import type { KmsMatrix } from "@/lib/model/kms-types";
import type { Signal } from "./signal-model";
import type { ClusterHealth } from "./cluster-health";
import { compareNatural } from "@/lib/model/natural-order";
import { classifyRows, encodeCursor, ROW_CLASSES, type HealthRow, type RowClass } from "./health-view";

// The matrix rows of one API server by page, and everything about one node: what the health page fetches on
// demand. Pages follow the view's order (class, then node) and a cursor names the last row of the previous
// page, so paging never repeats or skips a row that stays where it was.

export const MATRIX_SERVERS = ["kube-apiserver", "openshift-apiserver", "oauth-apiserver"] as const;
export type MatrixServer = (typeof MATRIX_SERVERS)[number];
/** A class, `problem` (every class but healthy) or `all`. */
export const ROW_FILTERS = ["problem", "all", ...ROW_CLASSES] as const;
export type RowFilter = (typeof ROW_FILTERS)[number];
export const MAX_PAGE = 500;

export interface RowsPage {
  server: MatrixServer;
  state: RowFilter;
  /** Rows of the matrix that pass the filter. */
  total: number;
  rows: HealthRow[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
}

export function matrixOf(health: ClusterHealth, server: MatrixServer): KmsMatrix | undefined {
  return server === "kube-apiserver" ? health.matrix : health.serverMatrices.find((m) => m.server === server)?.matrix;
}

const passes = (filter: RowFilter, c: RowClass) => filter === "all" || filter === c || (filter === "problem" && c !== "healthy");

/**
 * One page of rows after `cursor`. `rows` is the matrix classified (classifyRows): ordered by class, then as the
 * matrix orders nodes; a cursor whose node is gone resumes after the last row that sorted before it.
 */
export function pageRows(
  rows: HealthRow[],
  query: { server: MatrixServer; state: RowFilter; limit: number; cursor?: { rank: number; node: string } },
): RowsPage {
  const order = new Map(rows.map((r, i) => [r.node, i]));
  const matching = rows.filter((r) => passes(query.state, r.class));
  let start = 0;
  if (query.cursor) {
    const { rank, node } = query.cursor;
    const at = matching.findIndex((r) => r.node === node && ROW_CLASSES.indexOf(r.class) === rank);
    start =
      at >= 0
        ? at + 1
        : matching.findIndex((r) => ROW_CLASSES.indexOf(r.class) > rank || (ROW_CLASSES.indexOf(r.class) === rank && after(r.node, node, order)));
    if (start < 0) start = matching.length;
  }
  const page = matching.slice(start, start + query.limit);
  const last = page[page.length - 1];
  return {
    server: query.server,
    state: query.state,
    total: matching.length,
    rows: page,
    nextCursor: last && start + page.length < matching.length ? encodeCursor(last) : null,
  };
}

/** Whether `node` sorts after `gone` (a node no longer in the matrix): by the matrix's natural order of names. */
function after(node: string, gone: string, order: Map<string, number>): boolean {
  if (order.has(gone)) return order.get(node)! > order.get(gone)!;
  return compareNatural(node, gone) > 0;
}

export interface NodeHealth {
  node: string;
  /** The node's row in each matrix that has one. */
  matrices: { server: MatrixServer; row: HealthRow }[];
  /** Signals whose subject is this node or one of its plugins. */
  signals: Signal[];
}

/** One node across every matrix, or undefined when no matrix has a row for it. */
export function nodeHealth(health: ClusterHealth, node: string, rowsOf: (m: KmsMatrix) => HealthRow[] = classifyRows): NodeHealth | undefined {
  const matrices = MATRIX_SERVERS.flatMap((server) => {
    const m = matrixOf(health, server);
    const row = m && m.rows.some((r) => r.node === node) ? rowsOf(m).find((r) => r.node === node) : undefined;
    return row ? [{ server, row }] : [];
  });
  if (matrices.length === 0) return undefined;
  const signals = health.signals.filter((s) => s.subject.split(" ").some((part) => part === node || part.startsWith(`${node}/`)));
  return { node, matrices, signals };
}
