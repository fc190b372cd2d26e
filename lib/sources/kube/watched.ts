import "server-only";
import type { KubeAccess } from "./client";
import { DEFAULT_WATCH_TUNING, ResourceWatch, type WatchSpec, type WatchTuning } from "./watch";
import { MAX_INJECTED_PODS, STACK, type SourceValues, type Sources } from "@/lib/sources/sources";
import type { SourceState } from "@/lib/sources/state";

// The Kubernetes objects the monitor keeps by watch (informer-style) rather than by polling: the
// operator CRs that carry the KMS health reports, nodes, the protection stack's workloads, the injected
// pods and the webhook configuration. A change reaches the health model as soon as the watch delivers it.

export const WATCHED = {
  kubeapiserver: { path: "/apis/operator.openshift.io/v1/kubeapiservers", name: "cluster" },
  openshiftapiserver: { path: "/apis/operator.openshift.io/v1/openshiftapiservers", name: "cluster" },
  authentication: { path: "/apis/operator.openshift.io/v1/authentications", name: "cluster" },
  nodes: { path: "/api/v1/nodes" },
  clusterOperator: { path: "/apis/config.openshift.io/v1/clusteroperators", name: "kube-apiserver" },
  operator: { path: `/apis/apps/v1/namespaces/${STACK.namespace}/deployments`, name: STACK.operator },
  ebpf: { path: `/apis/apps/v1/namespaces/${STACK.namespace}/daemonsets`, name: STACK.ebpf },
  webhook: { path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", name: STACK.webhook },
  bridge: { path: `/apis/apps/v1/namespaces/${STACK.namespace}/deployments`, name: STACK.bridge },
  /** Injected workloads in every namespace, bounded: the wrapper's restarts and last exit are in their container statuses. */
  pods: { path: "/api/v1/pods", labelSelector: STACK.injectLabel, maxItems: MAX_INJECTED_PODS },
  /** Whether the webhook's Service has ready endpoints (the webhook configuration names the Service). */
  endpoints: { path: `/api/v1/namespaces/${STACK.namespace}/endpoints` },
} satisfies Partial<Record<keyof SourceValues, WatchSpec>>;

export type WatchedName = keyof typeof WATCHED;
export type Watches = Map<WatchedName, ResourceWatch>;

/** The watched sources that changed, already as SourceStates; `changed` when worth a push, not only counters or times. */
export type WatchUpdate = (update: Partial<Sources>, changed: boolean) => void;

/**
 * Starts one watch per watched source; each pushes its source's new state through `onUpdate` as it
 * changes. `restored` is what was known before (a restart, or another process leading): kept until a
 * watch has something to say, and the origin of "down since" for a source that was already down.
 */
export function startWatches(access: () => KubeAccess, onUpdate: WatchUpdate, tuning: Partial<WatchTuning> = {}, restored: Sources = {}): Watches {
  const watches: Watches = new Map();
  for (const [name, spec] of Object.entries(WATCHED) as [WatchedName, WatchSpec][]) {
    let last = restored[name] as SourceState | undefined;
    const watch: ResourceWatch = new ResourceWatch(
      spec,
      access,
      (changed) => {
        const state = sourceStateOf(name, watch, last);
        if (!state) return;
        last = state;
        onUpdate({ [name]: state }, changed);
      },
      { ...DEFAULT_WATCH_TUNING, ...tuning },
    );
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
 * One watch's source as a SourceState. Before its first LIST there is nothing to say (the restored value
 * stays); while it is down its last objects stay, with "down since" carried over from before a restart.
 */
function sourceStateOf(name: WatchedName, watch: ResourceWatch, before: SourceState | undefined): SourceState | undefined {
  const s = watch.state;
  if (!s.synced && s.lastError === undefined) return undefined;
  const stats = {
    lists: s.lists,
    reconnects: s.reconnects,
    stalls: s.stalls,
    expired: s.expired,
    ...(s.notServed ? { notServed: true } : {}),
    ...(watch.cut() > 0 ? { cut: watch.cut() } : {}),
    ...(s.resourceVersion ? { resourceVersion: s.resourceVersion } : {}),
  };
  const collection = watch.spec.name === undefined;
  const value = s.synced ? (collection ? watch.items() : watch.object()) : before?.value;
  return {
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
