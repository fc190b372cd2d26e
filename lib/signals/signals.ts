import type { KmsMetrics } from "@/lib/sources/prometheus/kms-metrics";
import { deriveClusterApiSignals, type KubeReadState } from "./derive-cluster-api-signals";
import { deriveBeaconSignals } from "./derive-beacon-signals";
import { deriveKmsMatrixSignals, deriveKmsProvidersSignals } from "./derive-kms-signals";
import { deriveMetricSignals } from "./derive-metric-signals";
import { deriveOpenBaoSignals, deriveTransitSignals, type OpenBaoInput, type TransitInput } from "./derive-openbao-signals";
import {
  deriveBridgeSignals,
  deriveOperatorSignals,
  deriveEbpfSignals,
  deriveWebhookEndpointSignals,
  deriveWebhookSignals,
  type BridgeInput,
} from "./derive-workload-signals";
import { deriveWrapperSignals, type WrapperInput } from "./derive-wrapper-signals";
import type { KmsMatrix } from "@/lib/model/kms-matrix";
import type { BeaconReading } from "@/lib/sources/beacon/read-beacon";
import type { KmsProvidersHealth } from "@/lib/sources/probes/parse-apiserver-health";
import type { DaemonSetView, DeploymentView, EndpointsView, WebhookConfigurationView } from "@/lib/sources/kube/read-workloads";
import type { Signal } from "./signal-model";

// Turns parsed views into catalog signals (catalog/signals.yaml): one per check and subject, "ok" included,
// so an incident keyed by (id, subject) can also see its check pass again.

export { SIGNAL_IDS, type Signal, type SignalId, type SignalStatus } from "./signal-model";
export type { OpenBaoInput, TransitInput } from "./derive-openbao-signals";

export interface SignalInput {
  /** The Kubernetes reads (watches and API-server probes) as last recorded; undefined: not read yet. */
  kubeReads?: KubeReadState[];
  /** The kube-apiserver's matrix (kubeapiservers CR). */
  matrix?: KmsMatrix;
  /** The aggregated API servers' matrices; their signals' subjects start with the server's name. */
  serverMatrices?: { server: string; matrix: KmsMatrix }[];
  kmsProviders?: { node: string; health: KmsProvidersHealth }[];
  openbao?: OpenBaoInput;
  transit?: TransitInput;
  operator?: DeploymentView;
  ebpf?: DaemonSetView;
  /** The bridge Deployment; undefined: not read yet. */
  bridge?: BridgeInput;
  /** The injected pods (and how many beyond the bound were not read); undefined: not read yet. */
  wrappers?: WrapperInput;
  /** null: looked for and not found. undefined: not checked. */
  webhook?: WebhookConfigurationView | null;
  /** The bridge's health endpoint; undefined: not configured. */
  beacon?: BeaconReading;
  /** The Endpoints of the stack's namespace; undefined: not read. */
  webhookEndpoints?: EndpointsView[];
  /** The cluster's Prometheus, when it has one (lib/sources/prometheus/kms-metrics.ts). */
  metrics?: KmsMetrics;
  now: Date;
  caWarningDays?: number;
}

const DEFAULT_CA_WARNING_DAYS = 30;

/** Every check the input allows, in a fixed order: the cluster API, KMS reports, API servers, KMS metrics, OpenBao, Transit, workloads. */
export function deriveSignals(input: SignalInput): Signal[] {
  return [
    ...(input.kubeReads ? deriveClusterApiSignals(input.kubeReads) : []),
    ...(input.matrix ? deriveKmsMatrixSignals(input.matrix) : []),
    ...(input.serverMatrices ?? []).flatMap(({ server, matrix }) => deriveKmsMatrixSignals(matrix).map((s) => onServer(server, s))),
    ...(input.kmsProviders ? deriveKmsProvidersSignals(input.kmsProviders) : []),
    ...(input.metrics ? deriveMetricSignals(input.metrics, input.now) : []),
    ...(input.openbao ? deriveOpenBaoSignals(input.openbao) : []),
    ...(input.transit ? deriveTransitSignals(input.transit) : []),
    ...(input.webhook !== undefined ? deriveWebhookSignals(input.webhook, input.now, input.caWarningDays ?? DEFAULT_CA_WARNING_DAYS) : []),
    ...(input.webhook && input.webhookEndpoints ? deriveWebhookEndpointSignals(input.webhook, input.webhookEndpoints) : []),
    ...(input.operator ? deriveOperatorSignals(input.operator) : []),
    ...(input.ebpf ? deriveEbpfSignals(input.ebpf) : []),
    ...(input.bridge ? deriveBridgeSignals(input.bridge) : []),
    ...(input.wrappers ? deriveWrapperSignals(input.wrappers) : []),
    ...(input.beacon ? deriveBeaconSignals(input.beacon) : []),
  ];
}

/** An aggregated API server's signal: its subject, and its problem's, start with the server's name. */
function onServer(server: string, signal: Signal): Signal {
  const subject = `${server} ${signal.subject}`;
  if (!signal.problem) return { ...signal, subject };
  return { ...signal, subject, problem: { ...signal.problem, subject: `${server} ${signal.problem.subject}`, fields: { ...signal.problem.fields, server } } };
}
