"use client";

import type { KmsCell, KmsMatrix, KmsRow } from "@/lib/model/kms-matrix";
import type { MatrixInView } from "@/lib/signals/health-view";
import type { MatrixServer } from "@/lib/signals/health-rows";
import { MatrixCounts, MoreRows } from "./matrix-row-pages";
import { MatrixRow } from "./matrix-row";

// Other pages (incidents) take the tones from here.
export { STATE_TONE } from "./matrix-row";

// One API server's node x plugin matrix: status, kekID, age of the last report, and its detail. The page holds
// the rows that need attention (all rows of a small matrix, lib/signals/health-view.ts); the healthy rows of a
// large one, and problem rows past the first ones, come from the rows API by page when asked for.

interface Props {
  matrix: MatrixInView | KmsMatrix;
  checkedAt: string;
  testId: string;
  caption?: string;
  /** Where the rows not in view come from; without it, every row is in `matrix`. */
  source?: { cluster: string; server: MatrixServer; version: number };
}

export function KmsMatrixTable({ matrix, checkedAt, testId, caption, source }: Props) {
  const inView = "inView" in matrix ? matrix.inView : undefined;
  const keyIDs = inView?.keyIDs ?? [...new Set(matrix.cells.map((c) => c.keyID))];
  // One lookup per cell, not a scan: a matrix can have thousands of rows.
  const cellAt = new Map<string, KmsCell>();
  for (const c of matrix.cells) if (!cellAt.has(`${c.node}\u0000${c.keyID}`)) cellAt.set(`${c.node}\u0000${c.keyID}`, c);
  const cellsOf = (row: KmsRow) => keyIDs.map((k) => cellAt.get(`${row.node}\u0000${k}`));
  return (
    <>
      {inView && !inView.all ? <MatrixCounts counts={inView.counts} shown={inView.shown} testId={testId} /> : null}
      <table className="data matrix-health" data-testid={testId}>
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col">Node</th>
            {keyIDs.map((k) => (
              <th key={k} scope="col">
                keyID {k}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.rows.map((row) => (
            <MatrixRow key={row.node} row={row} cells={cellsOf(row)} keyIDs={keyIDs} checkedAt={checkedAt} />
          ))}
          {inView && !inView.all && source ? (
            <MoreRows source={source} counts={inView.counts} shown={inView.shown} next={inView.next} keyIDs={keyIDs} testId={testId} />
          ) : null}
        </tbody>
      </table>
      <p className="muted">
        {matrix.agreement
          .map(
            (a) =>
              `keyID ${a.keyID}: ${a.agree ? "nodes agree on the KEK" : `nodes DISAGREE (${a.kekIDs.map((k) => `${k.kekID} on ${k.nodes.join(", ")}${"nodesTotal" in k && typeof k.nodesTotal === "number" ? ` and ${k.nodesTotal - k.nodes.length} more` : ""}`).join("; ")})`}`,
          )
          .join(" · ")}
        {matrix.migration.inProgress ? ` · migration in progress (keyIDs ${matrix.migration.keyIDs.join(", ")})` : ""}
      </p>
    </>
  );
}
