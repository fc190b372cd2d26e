import type { SourceState } from "./state";
import type { SourceValues, Sources } from "./sources";
import { readBeacon, type BeaconReading } from "./beacon/read-beacon";
import { readClusterOperator, type ClusterOperatorView } from "./kube/read-cluster-operator";
import { readNodes, type NodeView } from "./kube/read-nodes";
import { readOperatorStatus, type OperatorStatusView } from "./kube/read-operator-status";
import { readInjectedPod, type InjectedPodView } from "./kube/read-pods";
import {
  readDaemonSet,
  readDeployment,
  readEndpoints,
  readWebhookConfiguration,
  type DaemonSetView,
  type DeploymentView,
  type EndpointsView,
  type WebhookConfigurationView,
} from "./kube/read-workloads";
import { parseKmsProvidersHealth, type KmsProvidersHealth } from "./probes/parse-apiserver-health";
import { parseOpenBaoHealth, parseTransitKey, type OpenBaoHealth, type TransitKey, type TransitKeyProblem } from "./probes/parse-openbao";
import type { KmsMetrics } from "./prometheus/kms-metrics";

// Each source's value typed where it is handed on: every source applies its own reader here, so lib/signals
// receives typed readings (and their ReadProblems) and never reads a Kubernetes object or a probe's body itself.

export interface ReadingValues {
  /** The operator CRs' status, with their KMS health reports. */
  kubeapiserver?: OperatorStatusView;
  openshiftapiserver?: OperatorStatusView;
  authentication?: OperatorStatusView;
  nodes?: NodeView[];
  clusterOperator?: ClusterOperatorView;
  operator?: DeploymentView;
  ebpf?: DaemonSetView;
  /** null: the watch found no bridge Deployment. */
  bridge?: DeploymentView | null;
  pods?: InjectedPodView[];
  /** null: the webhook configuration does not exist. */
  webhook?: WebhookConfigurationView | null;
  endpoints?: EndpointsView[];
  kmsProviders?: KmsProvidersHealth;
  readyz?: SourceValues["readyz"];
  openbao?: OpenBaoHealth | { unreachable: true; error: string };
  /** Only a 200 or a 404 says anything about the key; a sealed or failing OpenBao leaves it undefined. */
  transit?: TransitKey | TransitKeyProblem;
  beacon?: BeaconReading;
  metrics?: KmsMetrics;
}

/** Every source's state with its value read: what composeClusterHealth (lib/signals) takes. */
export type Readings = { [K in keyof ReadingValues]?: SourceState<ReadingValues[K]> };

type SourceName = keyof SourceValues;
type Readers = { [K in SourceName]: (value: SourceValues[K]) => ReadingValues[K] };

// The monitor composes every poll (2 s) but a watched object changes only when the cluster writes it; the
// monitor keeps an unchanged object's identity, so what is read from it is kept per object (5,000 nodes: ~40 ms).
const readCache = new WeakMap<object, unknown>();
function once<T extends object, R>(value: T, read: (value: T) => R): R {
  if (!readCache.has(value)) readCache.set(value, read(value));
  return readCache.get(value) as R;
}
/** once() for a value a cluster sent, which need not be an object (its reader says what is wrong with it). */
function onceIf<R>(value: unknown, read: (value: unknown) => R): R {
  return typeof value === "object" && value !== null ? once(value, read) : read(value);
}

const operatorStatus = (cr: unknown) => (cr ? once(cr, readOperatorStatus) : undefined);

const READERS: Readers = {
  kubeapiserver: operatorStatus,
  openshiftapiserver: operatorStatus,
  authentication: operatorStatus,
  nodes: (nodes) => (nodes ? once(nodes, readNodes) : undefined),
  clusterOperator: (co) => (co ? onceIf(co, readClusterOperator) : undefined),
  operator: (deployment) => (deployment ? onceIf(deployment, readDeployment) : undefined),
  ebpf: (daemonSet) => (daemonSet ? onceIf(daemonSet, readDaemonSet) : undefined),
  bridge: (deployment) => (deployment === null ? null : deployment !== undefined ? onceIf(deployment, readDeployment) : undefined),
  // Per object: a list is built again when one of its objects changes, the others keep their identity.
  pods: (pods) => pods?.map((pod) => onceIf(pod, readInjectedPod)),
  // A webhook configuration's reading parses its CA bundle's certificates: once per object, not every round.
  webhook: (config) => (config === null ? null : config ? onceIf(config, readWebhookConfiguration) : undefined),
  endpoints: (endpoints) => endpoints?.map((e) => onceIf(e, readEndpoints)),
  // A probe's answer keeps its identity while the endpoint answers the same (lib/sources/probes/collect.ts).
  kmsProviders: (kms) => (kms ? once(kms, (k) => parseKmsProvidersHealth(k.status, k.body)) : undefined),
  readyz: (readyz) => readyz,
  openbao: (bao) => (bao ? ("unreachable" in bao ? bao : once(bao, (b) => parseOpenBaoHealth(b.status, b.body))) : undefined),
  transit: (transit) => (transit && (transit.status === 200 || transit.status === 404) ? once(transit, (t) => parseTransitKey(t.body)) : undefined),
  beacon: (beacon) => (beacon ? once(beacon, readBeacon) : undefined),
  metrics: (metrics) => metrics,
};

/** The sources with each value read, in the same order (the page lists the sources in it). */
export function readSources(sources: Sources): Readings {
  const readings: Readings = {};
  for (const name of Object.keys(sources) as (keyof Sources)[]) readInto(readings, sources, name);
  return readings;
}

function readInto<K extends keyof Sources>(readings: Readings, sources: Sources, name: K): void {
  const state: Sources[K] = sources[name];
  if (!state) return;
  const { value, ...meta } = state;
  const read: Readers[K] = READERS[name];
  readings[name] = { ...meta, value: read(value) };
}
