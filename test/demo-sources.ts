import type { DemoCluster } from "@/lib/demo/cluster/cluster";
import type { Sources } from "@/lib/sources/sources";

// The demo cluster's KMS-report objects as the monitor holds them once its watches have listed them: what the
// text boundary, the health model and the pushes are tested and benchmarked on.

export const upSource = (name: string, value: unknown, lastSuccess = new Date().toISOString()) => ({ name, up: true, lastSuccess, value });

/** The three operator CRs and the nodes, each up; `edits` replaces the KubeAPIServer CR or the node list read. */
export function demoSources(cluster: DemoCluster, edits: { kubeapiserver?: unknown; nodes?: unknown[]; lastSuccess?: string } = {}): Sources {
  const get = (plural: string) => cluster.object("operator.openshift.io", plural, "cluster");
  const up = (name: string, value: unknown) => upSource(name, value, edits.lastSuccess);
  return {
    kubeapiserver: up("kubeapiserver", edits.kubeapiserver ?? get("kubeapiservers")),
    openshiftapiserver: up("openshiftapiserver", get("openshiftapiservers")),
    authentication: up("authentication", get("authentications")),
    nodes: up("nodes", edits.nodes ?? cluster.objects("", "nodes")),
  } as Sources;
}

type Condition = { type: string; message: string };

/** A copy of a KubeAPIServer CR in which node's reporter writes `change` into each of its plugin reports. */
export function withReport<T>(cr: T, node: string, change: Record<string, string>): T {
  const copy = structuredClone(cr) as { status: { conditions: Condition[] } };
  const condition = copy.status.conditions.find((c) => c.type === `KMSHealthReporter_${node}`)!;
  condition.message = JSON.stringify((JSON.parse(condition.message) as Record<string, string>[]).map((r) => ({ ...r, ...change })));
  return copy as T;
}
