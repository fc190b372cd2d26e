import type { KmsMetrics } from "@/lib/sources/prometheus/kms-metrics";
import type { SourceState } from "@/lib/sources/state";
import type { BeaconReading } from "@/lib/sources/beacon/read-beacon";

// What the monitor holds of a cluster, source by source: the watched Kubernetes objects and the probes'
// answers as they came (SourceValues), each kept as a SourceState with its last-known value. This is what is
// cleaned, stored and restored; lib/signals reads the typed Readings made from it (readings.ts).

export const STACK = {
  namespace: "cloudtaser-system",
  operator: "cloudtaser-operator",
  ebpf: "cloudtaser-ebpf",
  webhook: "cloudtaser-operator-webhook",
  bridge: "cloudtaser-bridge",
  /** The label (and annotation) the webhook's objectSelector matches, and the wrapper it makes each container's PID 1. */
  injectLabel: "cloudtaser.io/inject=true",
  wrapper: "/cloudtaser/wrapper",
};

/** Injected pods kept at most: beyond this the signal says how many were not read. */
export const MAX_INJECTED_PODS = 5_000;

export interface SourceValues {
  /** The operator CRs that carry KMS health reports (null when absent or not served). */
  kubeapiserver?: unknown;
  openshiftapiserver?: unknown;
  authentication?: unknown;
  nodes?: unknown[];
  clusterOperator?: unknown;
  operator?: unknown;
  ebpf?: unknown;
  /** The bridge Deployment (null when it does not exist). */
  bridge?: unknown | null;
  /** The pods labelled for injection, in every namespace (at most MAX_INJECTED_PODS). */
  pods?: unknown[];
  /** null when the configuration does not exist (a 404 is an answer, not a failure). */
  webhook?: unknown | null;
  /** The Endpoints objects of the stack's namespace. */
  endpoints?: unknown[];
  kmsProviders?: { status: number; body: string };
  readyz?: { status: number; body: string };
  openbao?: { status: number; body: unknown } | { unreachable: true; error: string };
  transit?: { status: number; body: unknown };
  /** The bridge's view of the beacon, when its health endpoint is configured (lib/sources/beacon). */
  beacon?: BeaconReading;
  /** The KMS metrics from the cluster's Prometheus, when one is configured. */
  metrics?: KmsMetrics;
}

export type Sources = { [K in keyof SourceValues]?: SourceState<SourceValues[K]> };
