import { describeReadProblem } from "@/lib/sources/kube/read-problem";
import { clipLine, clipLineKeepingEnd, clipText } from "@/lib/model/clip-text";
import type { KmsCell, KmsMatrix, KmsRow } from "@/lib/model/kms-matrix";
import type { KmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import { describeFailingCell, REASON_DETAIL_LIMIT } from "@/lib/model/roll-up-kms-health";
import { createSignal, type Signal } from "./signal-model";
import { byNode } from "@/lib/model/by-node";

// Signals from the KMS matrix and the API servers' kms-providers checks. Subjects: "<node>/<keyID>" for
// one plugin, "<node>" for a reporter, "keyID <n>" for agreement, "cluster" for the migration.

const EVIDENCE_RAW_LIMIT = 2_000;

export function deriveKmsMatrixSignals(matrix: KmsMatrix): Signal[] {
  const signals: Signal[] = [];
  const threshold = `threshold ${matrix.thresholdSeconds}s`;
  const inCluster = matrix.cells.filter((c) => !c.orphaned);

  for (const cell of inCluster) signals.push(describePlugin(cell, threshold, matrix.thresholdSeconds));
  for (const row of matrix.rows) {
    if (!row.present || !row.unparseable) continue;
    const { raw, error, source } = row.unparseable;
    const kept = clipText(raw, EVIDENCE_RAW_LIMIT);
    signals.push(
      createSignal(
        "kms.plugin.unhealthy",
        row.node,
        "unknown",
        `health message on ${source} is unparseable: ${clipLine(error ?? "unknown error", REASON_DETAIL_LIMIT)}`,
        {
          node: row.node,
          source,
          ...(error ? { error } : {}),
          raw: kept.text,
          ...(kept.clipped ? { truncated: true, rawLength: raw.length } : {}),
        },
        { kind: "report-unparseable", fields: { node: row.node, source, error: error ?? null } },
      ),
    );
  }
  for (const item of matrix.unreadable) {
    signals.push(
      createSignal(
        "kms.plugin.unhealthy",
        item.source,
        "unknown",
        `health report unreadable: ${clipLine(describeReadProblem(item.problem), REASON_DETAIL_LIMIT)}`,
        item,
        {
          kind: "report-unreadable",
          fields: { source: item.source, reason: item.problem.kind, at: item.problem.subject },
        },
      ),
    );
  }

  const cellsOf = byNode(matrix.cells);
  for (const row of matrix.rows) {
    const own = cellsOf(row.node);
    if (row.present) {
      const stale = describeStaleness(row, own, threshold, matrix.thresholdSeconds);
      if (stale) signals.push(stale);
    } else {
      signals.push(
        createSignal(
          "kms.report.orphaned",
          row.node,
          "warning",
          `${row.node} is not in the cluster but still has ${own.length} KMS health report(s); excluded from the rollup`,
          { row, cells: own },
          {
            kind: "report-orphaned",
            fields: { node: row.node, reports: own.length },
          },
        ),
      );
    }
    if (row.present && own.length > 0) signals.push(describeSkew(row.node, own, matrix.futureSkewSeconds));
  }

  for (const entry of matrix.agreement) {
    const detail = entry.kekIDs.map((k) => `${k.kekID} on ${k.nodes.join(", ")}`).join("; ");
    signals.push(
      entry.agree
        ? createSignal("kms.kek.disagreement", `keyID ${entry.keyID}`, "ok", `all fresh reports agree: ${detail}`, entry)
        : createSignal(
            "kms.kek.disagreement",
            `keyID ${entry.keyID}`,
            "critical",
            `nodes disagree on the KEK: ${detail}; do not rotate until they agree`,
            entry,
            {
              kind: "kek-disagreement",
              fields: { keyID: entry.keyID, kekIDs: entry.kekIDs.map((k) => k.kekID).join(", "), count: entry.kekIDs.length },
            },
          ),
    );
  }

  if (inCluster.length > 0) {
    const { migration } = matrix;
    signals.push(
      migration.inProgress
        ? createSignal(
            "kms.migration.in-progress",
            "cluster",
            "warning",
            `keyIDs ${migration.keyIDs.join(" and ")} reported at once: a KMS-to-KMS migration is under way`,
            migration,
            {
              kind: "kms-migration",
              fields: { keyIDs: migration.keyIDs.join(", "), count: migration.keyIDs.length },
            },
          )
        : createSignal("kms.migration.in-progress", "cluster", "ok", `one keyID reported: ${migration.keyIDs.join("")}`, migration),
    );
  }
  return signals;
}

function describePlugin(cell: KmsCell, threshold: string, thresholdSeconds: number): Signal {
  const subject = `${cell.node}/${cell.keyID}`;
  if (cell.stale) {
    return createSignal("kms.plugin.unhealthy", subject, "unknown", `report is ${cell.ageSeconds}s old (${threshold}); last reported ${cell.reported}`, cell, {
      kind: "report-stale",
      fields: { node: cell.node, keyID: cell.keyID, ageSeconds: cell.ageSeconds, thresholdSeconds, lastReported: cell.reported },
    });
  }
  if (cell.reported === "healthy") {
    return createSignal("kms.plugin.unhealthy", subject, "ok", `keyID ${cell.keyID}${cell.kekID ? ` (kekID ${cell.kekID})` : ""} healthy`, cell);
  }
  return createSignal("kms.plugin.unhealthy", subject, "critical", describeFailingCell(cell), cell, {
    kind: `plugin-${cell.reported}`,
    fields: { node: cell.node, keyID: cell.keyID, kekID: cell.kekID ?? null, detail: cell.detail ?? null, source: cell.source },
  });
}

function describeStaleness(row: KmsRow, own: KmsCell[], threshold: string, thresholdSeconds: number): Signal | undefined {
  const stale = own.filter((c) => c.stale);
  const evidence = { row, staleCells: stale };
  if (stale.length > 0) {
    const newest = stale.reduce((best, c) => (c.ageSeconds < best.ageSeconds ? c : best));
    const which = stale.length === own.length ? "report" : `keyID ${stale.map((c) => c.keyID).join(", ")} report`;
    return createSignal(
      "kms.report.stale",
      row.node,
      "warning",
      `${which} stale: lastChecked ${newest.lastChecked} is ${newest.ageSeconds}s old (${threshold})`,
      evidence,
      {
        kind: "report-stale",
        fields: {
          node: row.node,
          keyIDs: stale.length === own.length ? null : stale.map((c) => c.keyID).join(", "),
          lastChecked: newest.lastChecked,
          ageSeconds: newest.ageSeconds,
          thresholdSeconds,
        },
      },
    );
  }
  if (own.length > 0) return createSignal("kms.report.stale", row.node, "ok", `reporting; lastChecked ${row.lastChecked}`, evidence);
  if (row.state === "unknown") {
    return createSignal(
      "kms.report.stale",
      row.node,
      "warning",
      `no KMS health report since the node was first seen at ${row.firstSeen} (${threshold})`,
      evidence,
      {
        kind: "report-missing",
        fields: { node: row.node, firstSeen: row.firstSeen ?? null, thresholdSeconds },
      },
    );
  }
  if (row.state === "not-yet-observed") {
    return createSignal("kms.report.stale", row.node, "unknown", "not yet observed: the node's reporter has not written a report yet (cold start)", evidence, {
      kind: "report-not-yet-observed",
      fields: { node: row.node },
    });
  }
  // An unparseable message with nothing readable beside it has no age; kms.plugin.unhealthy carries it.
  return undefined;
}

function describeSkew(node: string, own: KmsCell[], skewSeconds: number): Signal {
  const future = own.filter((c) => c.future);
  const behind = own.filter((c) => c.behindSeconds !== undefined);
  if (future.length === 0 && behind.length === 0)
    return createSignal("kms.report.clock-skew", node, "ok", `no report off the observer's or the API server's clock by more than ${skewSeconds}s`, {
      futureCells: [],
    });
  if (future.length === 0) {
    const worst = behind.reduce((a, c) => (c.behindSeconds! > a.behindSeconds! ? c : a));
    return createSignal(
      "kms.report.clock-skew",
      node,
      "warning",
      `lastChecked ${worst.lastChecked} is ${worst.behindSeconds}s behind the API server's time of the write (allowed skew ${skewSeconds}s): this node's clock is behind; its reports are read as fresh, and its tokens and certificates may look not yet valid`,
      { behindCells: behind },
      { kind: "report-clock-behind", fields: { node, lastChecked: worst.lastChecked, behindSeconds: worst.behindSeconds!, allowedSkewSeconds: skewSeconds } },
    );
  }
  const worst = future.reduce((a, c) => (c.ageSeconds < a.ageSeconds ? c : a));
  return createSignal(
    "kms.report.clock-skew",
    node,
    "warning",
    `lastChecked ${worst.lastChecked} is ${-worst.ageSeconds}s ahead of the observer's clock (allowed skew ${skewSeconds}s); staleness cannot be judged until the clocks agree`,
    { futureCells: future },
    { kind: "report-clock-skew", fields: { node, lastChecked: worst.lastChecked, aheadSeconds: -worst.ageSeconds, allowedSkewSeconds: skewSeconds } },
  );
}

export function deriveKmsProvidersSignals(checks: readonly { node: string; health: KmsProvidersHealth }[]): Signal[] {
  return checks.map(({ node, health }) => {
    if (health.ok) return createSignal("apiserver.kms-providers.failing", node, "ok", "kms-providers check passes", health);
    if (health.httpStatus === 500) {
      const failing = health.providers.map((p) => `${p.name}${p.error ? `: ${p.error}` : ""}`).join("; ");
      return createSignal(
        "apiserver.kms-providers.failing",
        node,
        "critical",
        `kms-providers check fails: ${clipLineKeepingEnd(failing || health.problem || "no provider named", REASON_DETAIL_LIMIT)}`,
        health,
        {
          kind: "kms-providers-failing",
          fields: {
            node,
            httpStatus: health.httpStatus,
            providers: health.providers.map((p) => p.name).join(", "),
            error: health.providers[0]?.error ?? health.problem ?? null,
          },
        },
      );
    }
    // 404 or another code says nothing about the plugins, only that the check was not where expected.
    return createSignal(
      "apiserver.kms-providers.failing",
      node,
      "unknown",
      clipLine(health.problem ?? `HTTP ${health.httpStatus}`, REASON_DETAIL_LIMIT),
      health,
      {
        kind: "kms-providers-unexpected-answer",
        fields: { node, httpStatus: health.httpStatus, problem: health.problem ?? null },
      },
    );
  });
}
