import "server-only";
import type { ClusterConfig } from "@/lib/clusters/config";
import { getRaw, type KubeAccess } from "@/lib/kube/client";
import { recordFailure, recordSuccess, type SourceState } from "./sources";

// One round of reads for one cluster. Every source is read on its own, so one failing source never
// hides the others; a failure keeps that source's last-known value.

export const STACK = { namespace: "cloudtaser-system", operator: "cloudtaser-operator", ebpf: "cloudtaser-ebpf", webhook: "cloudtaser-operator-webhook" };

export interface RawObservation {
  kubeapiserver?: unknown;
  nodes?: unknown[];
  clusterOperator?: unknown;
  operator?: unknown;
  ebpf?: unknown;
  /** null when the configuration does not exist (a 404 is an answer, not a failure). */
  webhook?: unknown | null;
  kmsProviders?: { status: number; body: string };
  readyz?: { status: number; body: string };
  openbao?: { status: number; body: unknown } | { unreachable: true; error: string };
  transit?: { status: number; body: unknown };
}

export type Sources = { [K in keyof RawObservation]?: SourceState<RawObservation[K]> };

export interface CollectTarget {
  cluster: ClusterConfig;
  /** Token for the Transit read, when one is configured (never logged). */
  openBaoToken?: string;
}

const notFound = (error: unknown) => (error as { code?: number }).code === 404;

async function openBaoHealth(address: string): Promise<RawObservation["openbao"]> {
  try {
    const response = await fetch(new URL("/v1/sys/health", address), { signal: AbortSignal.timeout(3000) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text; the parser reports it
    }
    return { status: response.status, body };
  } catch (error) {
    // An unreachable OpenBao is itself the observation, not a failed read.
    return { unreachable: true, error: ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message };
  }
}

export async function collect(target: CollectTarget, previous: Sources, now: () => Date, kube: KubeAccess): Promise<Sources> {
  const reads: { [K in keyof RawObservation]-?: () => Promise<RawObservation[K]> } = {
    kubeapiserver: () => kube.custom.getClusterCustomObject({ group: "operator.openshift.io", version: "v1", plural: "kubeapiservers", name: "cluster" }),
    nodes: async () => (await kube.core.listNode()).items as unknown[],
    clusterOperator: () => kube.custom.getClusterCustomObject({ group: "config.openshift.io", version: "v1", plural: "clusteroperators", name: "kube-apiserver" }),
    operator: () => kube.apps.readNamespacedDeployment({ name: STACK.operator, namespace: STACK.namespace }),
    ebpf: () => kube.apps.readNamespacedDaemonSet({ name: STACK.ebpf, namespace: STACK.namespace }),
    webhook: () => kube.admission.readMutatingWebhookConfiguration({ name: STACK.webhook }).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error))),
    kmsProviders: () => getRaw(kube, "/healthz/kms-providers"),
    readyz: () => getRaw(kube, "/readyz?verbose"),
    openbao: async () => (target.cluster.openbao ? openBaoHealth(target.cluster.openbao.address) : undefined),
    transit: async () => {
      const bao = target.cluster.openbao;
      if (!bao || !target.openBaoToken) return undefined;
      const response = await fetch(new URL(`/v1/transit/keys/${encodeURIComponent(bao.transitKey)}`, bao.address), {
        headers: { "X-Vault-Token": target.openBaoToken },
        signal: AbortSignal.timeout(3000),
      });
      return { status: response.status, body: await response.json().catch(() => undefined) };
    },
  };
  const names = Object.keys(reads) as (keyof RawObservation)[];
  const results = await Promise.allSettled(names.map((name) => reads[name]()));
  const at = now();
  const next: Sources = {};
  names.forEach((name, i) => {
    const result = results[i];
    const before = previous[name] as SourceState | undefined;
    (next as Record<string, SourceState>)[name] =
      result.status === "fulfilled" ? recordSuccess(name, result.value, at) : recordFailure(before, name, result.reason, at);
  });
  return next;
}
