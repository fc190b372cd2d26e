"use client";

import type { KmsCell, KmsRow } from "@/lib/model/kms-matrix";
import { Badge, type Tone } from "@/components/ui/badge";
import { ago } from "@/components/ui/time";

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

/** One node's row: a cell per plugin (keyID), in the order of `keyIDs`. */
export function MatrixRow({ row, cells, keyIDs, checkedAt }: { row: KmsRow; cells: (KmsCell | undefined)[]; keyIDs: string[]; checkedAt: string }) {
  return (
    <tr data-node={row.node}>
      <th scope="row">
        {row.node}
        <span className="sub">
          {row.state}
          {!row.present ? " (node gone)" : ""}
        </span>
      </th>
      {keyIDs.map((k, i) => {
        const cell = cells[i];
        return (
          <td key={k} data-cell={`${row.node}/${k}`} data-label={`keyID ${k}`}>
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
  );
}
