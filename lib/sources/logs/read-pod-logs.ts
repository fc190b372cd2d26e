import "server-only";
import { getResource, getText, KubeHttpError, type KubeAccess } from "@/lib/sources/kube/client";
import { isRecord } from "@/lib/sources/describe-input";
import { nodesNamed, reasonOf, splitLines, type LogReading, type LogSettings } from "./log-reading";

// The tails of the kube-apiserver and KMS plugin containers of the nodes an incident names, through the pods/log
// API with the cluster's read-only credentials (pods/log get, deploy/kubernetes/watched/clusterrole.yaml). Each read
// is bounded three ways (tailLines, sinceSeconds, limitBytes, also cut here should a server ignore them); a
// container that restarted is read twice, its previous instance too, since that is where a crash says why. One read
// failing is that read's refusal; the others go on.

const TIMEOUT_MS = 10_000;

interface ContainerToRead {
  pod: string;
  node: string;
  container: string;
  previous: boolean;
}

/** Reads the logs of the pods on `subjects`' nodes (or the first `maxNodes` when no subject names one). */
export async function readPodLogs(access: KubeAccess, subjects: string[], settings: LogSettings): Promise<LogReading[]> {
  const list = `/api/v1/namespaces/${encodeURIComponent(settings.namespace)}/pods?${new URLSearchParams({ labelSelector: settings.labelSelector, limit: "500" })}`;
  let pods: unknown[];
  try {
    const answer = await getResource(access, list, TIMEOUT_MS, 32 * 1024 * 1024);
    pods = isRecord(answer) && Array.isArray(answer.items) ? answer.items : [];
  } catch (error) {
    return [refusedList(settings, error)];
  }
  const targets = containersToRead(pods, subjects, settings);
  if (targets.length === 0) {
    return [
      refusedPods(
        settings,
        `no pod matches ${settings.labelSelector} in ${settings.namespace} on the nodes named (${subjects.slice(0, 5).join(", ") || "none"})`,
      ),
    ];
  }
  return Promise.all(targets.map((t) => readOne(access, t, settings)));
}

function containersToRead(pods: unknown[], subjects: string[], settings: LogSettings): ContainerToRead[] {
  const byNode = new Map<string, Record<string, unknown>>();
  for (const pod of pods) {
    if (!isRecord(pod) || !isRecord(pod.spec) || typeof pod.spec.nodeName !== "string" || !isRecord(pod.metadata)) continue;
    if (typeof pod.metadata.name !== "string") continue;
    if (!byNode.has(pod.spec.nodeName)) byNode.set(pod.spec.nodeName, pod);
  }
  const named = nodesNamed(subjects, new Set(byNode.keys()));
  const nodes = (named.length > 0 ? named : [...byNode.keys()].sort()).slice(0, settings.maxNodes);
  const wanted = (name: string) => settings.containers.some((c) => (c.endsWith("*") ? name.startsWith(c.slice(0, -1)) : name === c));
  return nodes.flatMap((node) => {
    const pod = byNode.get(node)!;
    const name = (pod.metadata as { name: string }).name;
    const spec = pod.spec as Record<string, unknown>;
    const containers = (Array.isArray(spec.containers) ? spec.containers : []).flatMap((c) => (isRecord(c) && typeof c.name === "string" ? [c.name] : []));
    const statuses = isRecord(pod.status) && Array.isArray(pod.status.containerStatuses) ? pod.status.containerStatuses.filter(isRecord) : [];
    return containers.filter(wanted).flatMap((container) => {
      const status = statuses.find((s) => s.name === container);
      const restarted = isRecord(status?.lastState) && isRecord(status.lastState.terminated);
      return [{ pod: name, node, container, previous: false }, ...(restarted ? [{ pod: name, node, container, previous: true }] : [])];
    });
  });
}

async function readOne(access: KubeAccess, t: ContainerToRead, settings: LogSettings): Promise<LogReading> {
  const query = new URLSearchParams({
    container: t.container,
    tailLines: String(settings.tailLines),
    sinceSeconds: String(settings.sinceSeconds),
    limitBytes: String(settings.limitBytes),
    timestamps: "true",
  });
  if (t.previous) query.set("previous", "true");
  const path = `/api/v1/namespaces/${encodeURIComponent(settings.namespace)}/pods/${encodeURIComponent(t.pod)}/log?${query}`;
  const base = {
    kind: "pod-log" as const,
    key: `pod:${settings.namespace}/${t.pod}/${t.container}${t.previous ? "/previous" : ""}`,
    source: `${t.pod} ${t.container}${t.previous ? " (previous instance)" : ""}`,
    node: t.node,
  };
  try {
    const { text, bytes, cut } = await getText(access, path, TIMEOUT_MS, settings.limitBytes);
    return { ...base, lines: splitLines(text).slice(-settings.tailLines), bytes, cut };
  } catch (error) {
    return { ...base, lines: [], bytes: 0, cut: false, refused: refusal(error, path) };
  }
}

/** "403 pods "x" is forbidden: ...": the status and the server's words, without the path repeated. */
function refusal(error: unknown, path: string): string {
  if (error instanceof KubeHttpError) return error.message.replace(`GET ${path}: `, "");
  return reasonOf(error);
}

/** The pods could not be listed, or none matched: one reading that says why, in the place of the pods'. */
function refusedPods(settings: LogSettings, refused: string): LogReading {
  return {
    kind: "pod-log",
    key: `pods:${settings.namespace}`,
    source: `pods ${settings.labelSelector} in ${settings.namespace}`,
    node: "",
    lines: [],
    bytes: 0,
    cut: false,
    refused,
  };
}

function refusedList(settings: LogSettings, error: unknown): LogReading {
  return refusedPods(settings, error instanceof KubeHttpError ? error.message.replace(/^GET \S+: /, "") : reasonOf(error));
}
