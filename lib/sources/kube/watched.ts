import "server-only";
import type { KubeAccess } from "./client";
import { DEFAULT_WATCH_TUNING, ResourceWatch, type WatchSpec, type WatchTuning } from "./watch";
import { STACK, type RawObservation, type Sources } from "@/lib/sources/observation";
import type { SourceState } from "@/lib/sources/state";

// The Kubernetes objects the monitor keeps by watch (informer-style) rather than by polling: the
// operator CRs that carry the KMS health reports, nodes, the protection stack's workloads and the
// webhook configuration. A change reaches the health model as soon as the watch delivers it.

export const WATCHED = {
  kubeapiserver: { path: "/apis/operator.openshift.io/v1/kubeapiservers", name: "cluster" },
  openshiftapiserver: { path: "/apis/operator.openshift.io/v1/openshiftapiservers", name: "cluster" },
  authentication: { path: "/apis/operator.openshift.io/v1/authentications", name: "cluster" },
  nodes: { path: "/api/v1/nodes" },
  clusterOperator: { path: "/apis/config.openshift.io/v1/clusteroperators", name: "kube-apiserver" },
  operator: { path: `/apis/apps/v1/namespaces/${STACK.namespace}/deployments`, name: STACK.operator },
  ebpf: { path: `/apis/apps/v1/namespaces/${STACK.namespace}/daemonsets`, name: STACK.ebpf },
  webhook: { path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", name: STACK.webhook },
  /** Whether the webhook's Service has ready endpoints (the webhook configuration names the Service). */
  endpoints: { path: `/api/v1/namespaces/${STACK.namespace}/endpoints` },
} satisfies Partial<Record<keyof RawObservation, WatchSpec>>;

export type WatchedName = keyof typeof WATCHED;
export type Watches = Map<WatchedName, ResourceWatch>;

export function startWatches(access: () => KubeAccess, onChange: () => void, tuning: Partial<WatchTuning> = {}): Watches {
  const watches: Watches = new Map();
  for (const [name, spec] of Object.entries(WATCHED) as [WatchedName, WatchSpec][]) {
    const watch = new ResourceWatch(spec, access, onChange, { ...DEFAULT_WATCH_TUNING, ...tuning });
    watches.set(name, watch);
    watch.start();
  }
  return watches;
}

export function stopWatches(watches: Watches | undefined): void {
  for (const watch of watches?.values() ?? []) watch.stop();
}

/** Whether every watch has answered once (listed, or failed), so a first round does not show "nothing yet" needlessly. */
export function watchesSettled(watches: Watches): boolean {
  return [...watches.values()].every((w) => w.state.synced || w.state.lastError !== undefined);
}

/**
 * The watched sources as SourceStates. Before a watch's first LIST the restored value stays; while a
 * watch is down its last objects stay, with "down since" carried over from before a restart.
 */
export function watchedSources(watches: Watches, previous: Sources): Partial<Sources> {
  const out: Record<string, SourceState> = {};
  for (const [name, watch] of watches) {
    const s = watch.state;
    const before = previous[name] as SourceState | undefined;
    const stats = { lists: s.lists, reconnects: s.reconnects, stalls: s.stalls, expired: s.expired, ...(s.notServed ? { notServed: true } : {}) };
    if (!s.synced && s.lastError === undefined) {
      if (before) out[name] = before;
      continue;
    }
    const collection = watch.spec.name === undefined;
    const value = s.synced ? (collection ? watch.items() : watch.object()) : before?.value;
    out[name] = {
      name,
      up: s.up,
      lastSuccess: s.lastSuccess ?? before?.lastSuccess,
      downSince: s.up ? undefined : before?.up === false && before.downSince ? before.downSince : s.downSince,
      lastError: s.up && !s.throttled ? undefined : s.lastError,
      value,
      watch: stats,
      ...(s.throttled ? { throttled: { ...s.throttled }, retryAt: s.throttled.retryAt } : {}),
    };
  }
  return out as Partial<Sources>;
}
