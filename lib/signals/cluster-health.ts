import type { RawObservation, Sources } from "@/lib/sources/observation";
import type { SourceState } from "@/lib/sources/state";
import type { KmsMetrics } from "@/lib/sources/prometheus/kms-metrics";
import type { Refusal } from "@/lib/text/refusal";
import { buildKmsMatrix, type KmsMatrix } from "@/lib/model/kms-matrix";
import { parseKmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import { parseOpenBaoHealth, parseTransitKey } from "@/lib/sources/probes/parse-openbao";
import { readClusterOperator } from "@/lib/sources/kube/read-cluster-operator";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { readDaemonSet, readDeployment, readEndpoints, readWebhookConfiguration } from "@/lib/sources/kube/read-workloads";
import { readInjectedPod } from "@/lib/sources/kube/read-pods";
import { deriveSignals, type OpenBaoInput, type Signal, type TransitInput } from "./signals";
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
] as const satisfies (keyof Sources)[];

const CONTROL_PLANE = ["node-role.kubernetes.io/master", "node-role.kubernetes.io/control-plane"];

// The monitor composes every poll (2 s) but a watched object changes only when the cluster writes it; the
// monitor keeps an unchanged object's identity, so what is read from it is kept per object (5,000 nodes: ~40 ms).
const readCache = new WeakMap<object, unknown>();
function once<T extends object, R>(value: T, read: (value: T) => R): R {
  if (!readCache.has(value)) readCache.set(value, read(value));
  return readCache.get(value) as R;
}
const operatorStatusOf = (cr: Parameters<typeof readOperatorStatus>[0]) => once(cr as object, () => readOperatorStatus(cr));

function nodesOf(value: RawObservation["nodes"]) {
  return value ? once(value, readNodes) : [];
}

function readNodes(value: NonNullable<RawObservation["nodes"]>) {
  return value.flatMap((node) => {
    const meta = (node as { metadata?: { name?: string; labels?: Record<string, string>; creationTimestamp?: string | Date } }).metadata;
    if (!meta?.name) return [];
    const created = meta.creationTimestamp instanceof Date ? meta.creationTimestamp.toISOString() : meta.creationTimestamp;
    return [{ name: meta.name, controlPlane: CONTROL_PLANE.some((l) => l in (meta.labels ?? {})), firstSeen: created }];
  });
}

/** null: the watch found no such Deployment; no value yet but an error: it could not be read. */
function bridgeOf(source: Sources["bridge"]): BridgeInput | undefined {
  if (!source) return undefined;
  if (source.value === null) return { absent: true };
  if (source.value !== undefined) return readDeployment(source.value);
  return source.lastError ? { unreadable: source.lastError } : undefined;
}

export interface ComposeInput {
  name: string;
  simulated: boolean;
  intervalSeconds: number;
  sources: Sources;
  now: Date;
  prometheusNote?: string;
  /** What the text boundary changed per source ("1 character replaced (U+0000)"). */
  cleaned?: ReadonlyMap<string, string>;
  refused?: ClusterHealth["refused"];
}

export function composeClusterHealth(input: ComposeInput): ClusterHealth {
  const { sources, now } = input;
  const cr = sources.kubeapiserver?.value;
  const nodes = nodesOf(sources.nodes?.value);
  const matrix = cr
    ? buildKmsMatrix({ now, intervalSeconds: input.intervalSeconds, sources: [{ source: "kubeapiservers", view: operatorStatusOf(cr) }], nodes })
    : undefined;
  // The aggregated API servers run as Deployment replicas, not on every control-plane node, so no node
  // is expected to report before it has: their matrices judge staleness and orphans, not cold start.
  const replicaNodes = nodes.map((n) => ({ ...n, controlPlane: false }));
  const serverMatrices = AGGREGATED.flatMap(({ server, cr: plural, source }) => {
    const object = sources[source]?.value;
    if (!object) return [];
    const m = buildKmsMatrix({
      now,
      intervalSeconds: input.intervalSeconds,
      sources: [{ source: plural, view: operatorStatusOf(object) }],
      nodes: replicaNodes,
    });
    return m.hasReports ? [{ server, cr: plural, matrix: m }] : [];
  });
  const kms = sources.kmsProviders?.value;
  const bao = sources.openbao?.value;
  const openbao: OpenBaoInput | undefined = bao ? ("unreachable" in bao ? bao : parseOpenBaoHealth(bao.status, bao.body)) : undefined;
  const transitRaw = sources.transit?.value;
  // Only a 200 or a 404 says anything about the key; a sealed or failing OpenBao leaves it unknown.
  const transit: TransitInput | undefined =
    transitRaw && (transitRaw.status === 200 || transitRaw.status === 404) ? parseTransitKey(transitRaw.body) : undefined;
  const webhookRaw = sources.webhook?.value;
  const kubeReads = KUBE_READS.flatMap((name) => {
    const s = sources[name];
    return s ? [{ name, up: s.up, downSince: s.downSince, lastError: s.lastError }] : [];
  });
  const signals = deriveSignals({
    now,
    kubeReads: kubeReads.length > 0 ? kubeReads : undefined,
    matrix,
    serverMatrices,
    kmsProviders: kms ? [{ node: "api", health: parseKmsProvidersHealth(kms.status, kms.body) }] : undefined,
    openbao,
    transit,
    operator: sources.operator?.value ? readDeployment(sources.operator.value) : undefined,
    ebpf: sources.ebpf?.value ? readDaemonSet(sources.ebpf.value) : undefined,
    bridge: bridgeOf(sources.bridge),
    wrappers: sources.pods?.value ? { pods: sources.pods.value.map((pod) => readInjectedPod(pod)), cut: sources.pods.watch?.cut ?? 0 } : undefined,
    webhook: webhookRaw === null ? null : webhookRaw ? readWebhookConfiguration(webhookRaw) : undefined,
    beacon: sources.beacon?.value,
    webhookEndpoints: sources.endpoints?.value ? sources.endpoints.value.map(readEndpoints) : undefined,
    metrics: sources.metrics?.value,
  });
  const co = sources.clusterOperator?.value ? readClusterOperator(sources.clusterOperator.value).degraded : undefined;
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
  const kubeDown = sources.kubeapiserver && !sources.kubeapiserver.up;
  const summary: ClusterHealth["summary"] = !matrix
    ? { state: "unknown", line: kubeDown ? `cluster API unreachable since ${sources.kubeapiserver?.downSince}; nothing known yet` : "no KMS health read yet" }
    : kubeDown
      ? { state: "unknown", line: `cluster API unreachable since ${sources.kubeapiserver?.downSince}; showing the last known state` }
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
    sources: Object.values(sources).map((s) => ({
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
    metrics: sources.metrics?.value,
    metricsNote: sources.metrics?.value
      ? undefined
      : (input.prometheusNote ?? "no Prometheus configured for this cluster (prometheus.url in the clusters file)"),
    clusterOperator,
    disagreement,
    signals,
    summary,
    ...(input.refused?.length ? { refused: input.refused } : {}),
  };
}
