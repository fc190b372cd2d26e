"use client";

import { useState } from "react";
import type { KmsMatrix } from "@/lib/model/kms-matrix";
import { Badge, type Tone } from "@/components/ui/badge";
import { ago } from "@/components/ui/time";

// One API server's node x plugin matrix: status, kekID, age of the last report, and its detail. A large
// cluster shows the nodes that need attention and hides the healthy ones behind a button, so the page
// stays small and the problems are what one sees.

/** Up to this many rows, every node is shown. */
export const ALL_ROWS_UP_TO = 50;

export const STATE_TONE: Record<string, Tone> = {
  ok: "green",
  healthy: "green",
  degraded: "red",
  critical: "red",
  unhealthy: "red",
  error: "red",
  warning: "orange",
  unknown: "orange",
};

export function KmsMatrixTable({ matrix, checkedAt, testId, caption }: { matrix: KmsMatrix; checkedAt: string; testId: string; caption?: string }) {
  const keyIDs = [...new Set(matrix.cells.map((c) => c.keyID))];
  // One lookup per cell, not a scan: a matrix can have thousands of rows.
  const cellAt = new Map<string, (typeof matrix.cells)[number]>();
  for (const c of matrix.cells) if (!cellAt.has(`${c.node}\u0000${c.keyID}`)) cellAt.set(`${c.node}\u0000${c.keyID}`, c);
  const [showAll, setShowAll] = useState(false);
  const healthy = (row: KmsMatrix["rows"][number]) =>
    row.state === "reporting" && keyIDs.every((k) => (cellAt.get(`${row.node}\u0000${k}`)?.status ?? "healthy") === "healthy");
  const folding = matrix.rows.length > ALL_ROWS_UP_TO && !showAll;
  const rows = folding ? matrix.rows.filter((row) => !healthy(row)) : matrix.rows;
  const hidden = matrix.rows.length - rows.length;
  return (
    <>
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
          {rows.map((row) => (
            <tr key={row.node} data-node={row.node}>
              <th scope="row">
                {row.node}
                <span className="sub">
                  {row.state}
                  {!row.present ? " (node gone)" : ""}
                </span>
              </th>
              {keyIDs.map((k) => {
                const cell = cellAt.get(`${row.node}\u0000${k}`);
                return (
                  <td key={k} data-cell={`${row.node}/${k}`}>
                    {cell ? (
                      <>
                        <Badge tone={STATE_TONE[cell.status] ?? "grey"}>{cell.status}</Badge> {cell.kekID ? <code>{cell.kekID}</code> : null}
                        <span className="sub">
                          {ago(cell.lastChecked, checkedAt)}
                          {cell.stale ? " · stale" : ""}
                          {cell.future ? " · clock ahead" : ""}
                        </span>
                        {cell.detail ? <span className="sub">{cell.detail}</span> : null}
                      </>
                    ) : (
                      <span className="muted">{row.state === "unparseable" ? "unparseable report" : "no report"}</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {matrix.rows.length > ALL_ROWS_UP_TO ? (
        <p className="muted" data-testid={`${testId}-folded`}>
          {folding ? `${hidden} of ${matrix.rows.length} nodes report every plugin healthy and are not listed. ` : `All ${matrix.rows.length} nodes listed. `}
          <button type="button" className="linklike" onClick={() => setShowAll(!showAll)}>
            {folding ? "Show every node" : "Show only the nodes that need attention"}
          </button>
        </p>
      ) : null}
      <p className="muted">
        {matrix.agreement
          .map(
            (a) =>
              `keyID ${a.keyID}: ${a.agree ? "nodes agree on the KEK" : `nodes DISAGREE (${a.kekIDs.map((k) => `${k.kekID} on ${k.nodes.join(", ")}`).join("; ")})`}`,
          )
          .join(" · ")}
        {matrix.migration.inProgress ? ` · migration in progress (keyIDs ${matrix.migration.keyIDs.join(", ")})` : ""}
      </p>
    </>
  );
}
