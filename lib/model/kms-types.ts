import type { PluginStatus } from "@/lib/sources/kube/parse-health-message";
import type { KmsReportDesign, KmsSource, UnreadableReport } from "./collect-kms-reports";

// The KMS health model's shapes (DESIGN.md "KMS health semantics"), apart from the code that builds them,
// so the matrix, its rollup and the agreement check all read them without importing each other.

export interface KmsNode {
  name: string;
  controlPlane: boolean;
  /** ISO time: creationTimestamp, or when the monitor first saw the node. */
  firstSeen?: string;
}

export interface KmsMatrixInput {
  now: Date;
  intervalSeconds: number;
  staleFactor?: number;
  futureSkewSeconds?: number;
  sources: KmsSource[];
  nodes: KmsNode[];
}

export type KmsCellStatus = PluginStatus | "unknown";

export interface KmsCell {
  node: string;
  keyID: string;
  kekID?: string;
  /** What the matrix believes: the reported value, or unknown once the report is stale. */
  status: KmsCellStatus;
  reported: PluginStatus;
  lastChecked: string;
  /** Negative when lastChecked is ahead of `now`. */
  ageSeconds: number;
  detail?: string;
  /** Set when detail was cut to DETAIL_LIMIT characters. */
  truncated?: true;
  stale: boolean;
  future: boolean;
  /** Seconds lastChecked lags behind the API server's record of the write: the node's clock is behind (set only then). */
  behindSeconds?: number;
  orphaned: boolean;
  source: string;
  design: KmsReportDesign;
}

export type KmsRowState = "reporting" | "stale" | "not-yet-observed" | "unknown" | "orphaned" | "unparseable";

export interface KmsRow {
  node: string;
  /** Whether the node is in the cluster's node list. */
  present: boolean;
  controlPlane: boolean;
  state: KmsRowState;
  /** Newest lastChecked across the node's cells. */
  lastChecked?: string;
  firstSeen?: string;
  unparseable?: { raw: string; error?: string; source: string };
}

export interface KmsRollup {
  degraded: boolean;
  reasons: string[];
}

export interface KmsAgreement {
  keyID: string;
  kekIDs: { kekID: string; nodes: string[] }[];
  agree: boolean;
}

export interface KmsMigration {
  inProgress: boolean;
  keyIDs: string[];
}

export interface KmsMatrix {
  now: string;
  intervalSeconds: number;
  thresholdSeconds: number;
  futureSkewSeconds: number;
  rows: KmsRow[];
  cells: KmsCell[];
  rollup: KmsRollup;
  agreement: KmsAgreement[];
  migration: KmsMigration;
  /** Reports the CR reader had to skip; they degrade the rollup but have no cell. */
  unreadable: UnreadableReport[];
  /** Whether the CR carries any KMS health report at all (readable or not). */
  hasReports: boolean;
  notes: string[];
}
