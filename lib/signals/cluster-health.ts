import type { Readings } from "@/lib/sources/readings";
import type { SourceState } from "@/lib/sources/state";
import type { KmsMetrics } from "@/lib/sources/prometheus/kms-metrics";
import type { Refusal } from "@/lib/text/refusal";
import { buildKmsMatrix, type KmsMatrix } from "@/lib/model/kms-matrix";
import { deriveSignals, type Signal } from "./signals";
import type { BridgeInput } from "./derive-workload-signals";

// One cluster's health from the last-known value of each source: the KMS matrix and rollup, the
// ClusterOperator's own verdict beside it, every signal, and which sources are down since when.

export interface ClusterHealth {
  name: string;
  simulated: boolean;
  checkedAt: string;
  intervalSeconds: number;
  sources: {
    name: string;
    up: boolean;
    lastSuccess?: string;
    downSince?: string;
    lastError?: string;
    watch?: SourceState["watch"];
    throttled?: SourceState["throttled"];
    cleaned?: string;
  }[];
  /** Signals and sources that failed alone: stored or judged by the incident rules they could not be; the rest were. */
  refused?: (Refusal & { stage: "store" | "judge" })[];
  /** The kube-apiserver's node x plugin matrix (kubeapiservers CR): the one that blocks API-server start-up. */
  matrix?: KmsMatrix;
  /**
   * The aggregated API servers' own matrices (openshiftapiservers, authentications CRs), each with
   * its own plugins, present when their CR carries KMS reports. Never merged: a healthy server must
   * not hide an unhealthy one.
   */
  serverMatrices: ServerMatrix[];
  /** Why the rollup is degraded, every server's reasons (the aggregated ones prefixed by the server's name). */
  reasons: string[];
  /** The KMS metrics with their sparkline history; absent when the cluster has no Prometheus configured. */
  metrics?: KmsMetrics;
  /** Why there are no metrics: no Prometheus configured, or the demo's could not start. */
  metricsNote?: string;
  clusterOperator?: { degraded?: string; reason?: string; message?: string };
  /** Set when the ClusterOperator and Faultline's rollup do not agree. */
  disagreement?: string;
  signals: Signal[];
  summary: { state: "ok" | "degraded" | "unknown"; line: string };
  /**
   * Set when this process follows: the health is the leader's, as the leader read the cluster at `checkedAt`
   * (docs/replicas.md). `leaderSilentSince`: the leader has not renewed its lease since then.
   */
  replica?: { role: "follower"; leaderSilentSince?: string };
}

export interface ServerMatrix {
  server: "openshift-apiserver" | "oauth-apiserver";
  cr: "openshiftapiservers" | "authentications";
  matrix: KmsMatrix;
}

const AGGREGATED: { server: ServerMatrix["server"]; cr: ServerMatrix["cr"]; source: "openshiftapiserver" | "authentication" }[] = [
  { server: "openshift-apiserver", cr: "openshiftapiservers", source: "openshiftapiserver" },
  { server: "oauth-apiserver", cr: "authentications", source: "authentication" },
];

/** The sources read through the cluster's API server (watches and its own health endpoints); OpenBao and the bridge are not. */
const KUBE_READS = [
  "kubeapiserver",
  "openshiftapiserver",
  "authentication",
  "nodes",
  "clusterOperator",
  "operator",
  "ebpf",
  "webhook",
  "endpoints",
  "pods",
  "kmsProviders",
  "readyz",
] as const satisfies (keyof Readings)[];

/** null: the watch found no such Deployment; no value yet but an error: it could not be read. */
function bridgeOf(source: Readings["bridge"]): BridgeInput | undefined {
  if (!source) return undefined;
  if (source.value === null) return { absent: true };
  if (source.value !== undefined) return source.value;
  return source.lastError ? { unreadable: source.lastError } : undefined;
}

export interface ComposeInput {
  name: string;
  simulated: boolean;
  intervalSeconds: number;
  /** Every source's state with its value already read by its source (lib/sources/readings.ts). */
  readings: Readings;
  now: Date;
  prometheusNote?: string;
  /** What the text boundary changed per source ("1 character replaced (U+0000)"). */
  cleaned?: ReadonlyMap<string, string>;
  refused?: ClusterHealth["refused"];
}

export function composeClusterHealth(input: ComposeInput): ClusterHealth {
  const { readings, now } = input;
  const kubeapiserver = readings.kubeapiserver?.value;
  const nodes = readings.nodes?.value ?? [];
  const matrix = kubeapiserver
    ? buildKmsMatrix({ now, intervalSeconds: input.intervalSeconds, sources: [{ source: "kubeapiservers", view: kubeapiserver }], nodes })
    : undefined;
  // The aggregated API servers run as Deployment replicas, not on every control-plane node, so no node
  // is expected to report before it has: their matrices judge staleness and orphans, not cold start.
  const replicaNodes = nodes.map((n) => ({ ...n, controlPlane: false }));
  const serverMatrices = AGGREGATED.flatMap(({ server, cr: plural, source }) => {
    const view = readings[source]?.value;
    if (!view) return [];
    const m = buildKmsMatrix({ now, intervalSeconds: input.intervalSeconds, sources: [{ source: plural, view }], nodes: replicaNodes });
    return m.hasReports ? [{ server, cr: plural, matrix: m }] : [];
  });
  const kms = readings.kmsProviders?.value;
  const kubeReads = KUBE_READS.flatMap((name) => {
    const s = readings[name];
    return s ? [{ name, up: s.up, downSince: s.downSince, lastError: s.lastError }] : [];
  });
  const signals = deriveSignals({
    now,
    kubeReads: kubeReads.length > 0 ? kubeReads : undefined,
    matrix,
    serverMatrices,
    kmsProviders: kms ? [{ node: "api", health: kms }] : undefined,
    openbao: readings.openbao?.value,
    transit: readings.transit?.value,
    operator: readings.operator?.value,
    ebpf: readings.ebpf?.value,
    bridge: bridgeOf(readings.bridge),
    wrappers: readings.pods?.value ? { pods: readings.pods.value, cut: readings.pods.watch?.cut ?? 0 } : undefined,
    webhook: readings.webhook?.value,
    beacon: readings.beacon?.value,
    webhookEndpoints: readings.endpoints?.value,
    metrics: readings.metrics?.value,
  });
  const co = readings.clusterOperator?.value?.degraded;
  const clusterOperator = co ? { degraded: co.status, reason: co.reason, message: co.message } : undefined;
  const rollupDegraded = matrix ? matrix.rollup.degraded || serverMatrices.some((m) => m.matrix.rollup.degraded) : undefined;
  const reasons = [...(matrix?.rollup.reasons ?? []), ...serverMatrices.flatMap((m) => m.matrix.rollup.reasons.map((r) => `${m.server}: ${r}`))];
  // The kube-apiserver ClusterOperator speaks for the kube-apiserver only, so compare it with that matrix.
  const kubeDegraded = matrix?.rollup.degraded;
  const disagreement =
    clusterOperator && kubeDegraded !== undefined && (clusterOperator.degraded === "True") !== kubeDegraded
      ? kubeDegraded
        ? "The ClusterOperator says Degraded=False, but the KMS plugins' own reports say otherwise: the shipped operator has no KMS health aggregator."
        : "The ClusterOperator says Degraded=True for a reason outside the KMS plugins' reports."
      : undefined;
  const kubeDown = readings.kubeapiserver && !readings.kubeapiserver.up;
  const summary: ClusterHealth["summary"] = !matrix
    ? { state: "unknown", line: kubeDown ? `cluster API unreachable since ${readings.kubeapiserver?.downSince}; nothing known yet` : "no KMS health read yet" }
    : kubeDown
      ? { state: "unknown", line: `cluster API unreachable since ${readings.kubeapiserver?.downSince}; showing the last known state` }
      : rollupDegraded
        ? { state: "degraded", line: `${reasons[0]}${reasons.length > 1 ? ` (+${reasons.length - 1} more)` : ""}` }
        : {
            state: "ok",
            line: `${matrix.rows.filter((r) => r.present).length} nodes, ${matrix.cells.length + serverMatrices.reduce((n, m) => n + m.matrix.cells.length, 0)} plugin reports healthy and fresh`,
          };
  return {
    name: input.name,
    simulated: input.simulated,
    checkedAt: now.toISOString(),
    intervalSeconds: input.intervalSeconds,
    sources: Object.values(readings).map((s) => ({
      name: s!.name,
      up: s!.up,
      lastSuccess: s!.lastSuccess,
      downSince: s!.downSince,
      lastError: s!.lastError,
      ...(s!.watch ? { watch: s!.watch } : {}),
      ...(s!.throttled ? { throttled: s!.throttled } : {}),
      ...(input.cleaned?.get(s!.name) ? { cleaned: input.cleaned.get(s!.name) } : {}),
    })),
    matrix,
    serverMatrices,
    reasons,
    metrics: readings.metrics?.value,
    metricsNote: readings.metrics?.value
      ? undefined
      : (input.prometheusNote ?? "no Prometheus configured for this cluster (prometheus.url in the clusters file)"),
    clusterOperator,
    disagreement,
    signals,
    summary,
    ...(input.refused?.length ? { refused: input.refused } : {}),
  };
}
