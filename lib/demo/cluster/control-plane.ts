import { createHash } from "node:crypto";
import type { JsonObject } from "./fields";
import { probe, type ClusterModel, type NodeState, type PluginState } from "./model";

// The kube-apiserver static pod of each control-plane node, with one KMS plugin sidecar per keyID (OpenShift's
// layout: openshift/enhancements kube-apiserver/kms-plugin-management.md), and how each container runs in the
// scenario in force: what kubelet reports in status.containerStatuses and what container-logs.ts prints.

export const KAS_NAMESPACE = "openshift-kube-apiserver";
export const KAS_CONTAINER = "kube-apiserver";
export const PLUGIN_IMAGE = "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0";
const KAS_IMAGE = "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2a0c1b6f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b";

export const kasPodName = (node: string) => `kube-apiserver-${node}`;
export const pluginContainer = (keyID: string) => `kms-plugin-${keyID}`;

/**
 * How a plugin container runs. `runs`: up, logging what its probes see; `fatal`: exits at start-up with `error` on
 * stderr (cmd/bao-kms-provider/main.go prints the error and exits 1), restarting in back-off; `panic`: crashes
 * with a Go panic some time after it started; `killed`: OOM-killed, nothing of its own at the end; `image`: never
 * started, its image cannot be pulled.
 */
export type PluginRun =
  { kind: "runs" } | { kind: "fatal"; error: string } | { kind: "panic" } | { kind: "killed" } | { kind: "image" } | { kind: "restarted" };

// Details the reporter carries that are the plugin's own start-up errors: it exits on them.
const FATAL_AT_START = [/^bind socket: /, /^listen unix /, /jwt read failed: identity file permissions are too broad/];

export function pluginRun(model: ClusterModel, node: NodeState, plugin: PluginState): PluginRun {
  if (model.active.has("kms-static-pod-image-unavailable") && plugin.health === "error" && /Failed to pull image/.test(plugin.detail ?? ""))
    return { kind: "image" };
  if (plugin.flapping) return node.socketRestarts > 1 ? { kind: "panic" } : { kind: "restarted" };
  const detail = plugin.health === "healthy" ? "" : (plugin.detail ?? "");
  if (FATAL_AT_START.some((p) => p.test(detail))) return { kind: "fatal", error: startError(detail) };
  if (model.active.has("kms-plugin-unavailable") && plugin.health === "error" && /connect: connection refused/.test(detail)) return { kind: "killed" };
  return { kind: "runs" };
}

/**
 * What `serve` returns: a socket it cannot bind comes from building the runtime as is; a login error from the
 * first status probe, wrapped as cmd/bao-kms-provider/serve.go@ac690182 and internal/status/controller.go@c41d358a do.
 */
function startError(detail: string): string {
  if (!detail.startsWith("jwt read failed")) return detail;
  return `initialize status cache: bootstrap status probe did not succeed within 30s: status probe failed: auth refresh failed: ${detail}`;
}

/** How often a crash-looping container has restarted, as kubelet counts it. */
export function restartCount(node: NodeState, run: PluginRun): number {
  if (run.kind === "panic" || run.kind === "restarted") return node.socketRestarts;
  if (run.kind === "fatal" || run.kind === "killed") return 7;
  return 0;
}

/** The node's plugins as kube-apiserver's probe sees them this tick. */
export function probeAll(model: ClusterModel, node: NodeState, tick: number) {
  return node.plugins.map((plugin) => ({ plugin, ...probe(model, node, plugin, tick) }));
}

const digest = (value: string) => createHash("sha256").update(value).digest("hex");
const podUid = (name: string) => {
  const h = digest(`uid/${name}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** The kube-apiserver pods of the present nodes. `started`: when the pods started; `restarted`: when a restarting container last did. */
export function controlPlanePods(model: ClusterModel, started: string, restarted: string): JsonObject[] {
  return model.nodes.filter((n) => n.present).map((node) => kasPod(model, node, started, restarted));
}

function kasPod(model: ClusterModel, node: NodeState, started: string, restarted: string): JsonObject {
  const name = kasPodName(node.name);
  const containerID = (container: string, generation: number) => `cri-o://${digest(`${name}/${container}/${generation}`)}`;
  const plugins = node.plugins.map((plugin) => ({ plugin, run: pluginRun(model, node, plugin) }));
  const statuses: JsonObject[] = [
    {
      name: KAS_CONTAINER,
      ready: true,
      started: true,
      restartCount: 0,
      image: KAS_IMAGE,
      imageID: KAS_IMAGE,
      containerID: containerID(KAS_CONTAINER, 0),
      state: { running: { startedAt: started } },
    },
    ...plugins.map(({ plugin, run }) =>
      pluginStatus(pluginContainer(plugin.keyID), `${name}_${KAS_NAMESPACE}(${podUid(name)})`, run, restartCount(node, run), started, restarted, containerID),
    ),
  ];
  const ready = statuses.every((s) => s.ready === true);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: KAS_NAMESPACE,
      uid: podUid(name),
      labels: { app: "openshift-kube-apiserver", apiserver: "true", revision: "14" },
      annotations: { "kubernetes.io/config.source": "file", "kubectl.kubernetes.io/default-container": KAS_CONTAINER },
    },
    spec: {
      nodeName: node.name,
      hostNetwork: true,
      priorityClassName: "system-node-critical",
      restartPolicy: "Always",
      schedulerName: "default-scheduler",
      containers: [
        { name: KAS_CONTAINER, image: KAS_IMAGE, command: ["/bin/bash", "-ec"] },
        ...node.plugins.map((p) => ({
          name: pluginContainer(p.keyID),
          image: PLUGIN_IMAGE,
          command: ["bao-kms-provider", "serve"],
          args: ["--config", `/etc/kubernetes/kms/kms-${p.keyID}.yaml`],
        })),
      ],
    },
    status: {
      phase: "Running",
      hostIP: nodeAddress(node.name),
      podIP: nodeAddress(node.name),
      podIPs: [{ ip: nodeAddress(node.name) }],
      startTime: started,
      qosClass: "Burstable",
      conditions: ["Initialized", "Ready", "ContainersReady", "PodScheduled"].map((type) => ({
        type,
        status: type.endsWith("Ready") && !ready ? "False" : "True",
        lastTransitionTime: started,
        lastProbeTime: null,
      })),
      containerStatuses: statuses,
    },
  };
}

function pluginStatus(
  name: string,
  pod: string,
  run: PluginRun,
  restarts: number,
  started: string,
  restarted: string,
  containerID: (container: string, generation: number) => string,
): JsonObject {
  const base = { name, image: PLUGIN_IMAGE, restartCount: restarts };
  const imageID = `${PLUGIN_IMAGE.split(":")[0]}@sha256:${digest(PLUGIN_IMAGE)}`;
  if (run.kind === "image") {
    return {
      ...base,
      ready: false,
      started: false,
      imageID: "",
      state: { waiting: { reason: "ErrImagePull", message: `Back-off pulling image "${PLUGIN_IMAGE}"` } },
    };
  }
  const last = (exitCode: number, reason: string) => ({
    lastState: { terminated: { exitCode, reason, startedAt: started, finishedAt: restarted, containerID: containerID(name, restarts - 1) } },
  });
  if (run.kind === "fatal" || run.kind === "killed") {
    return {
      ...base,
      ready: false,
      started: false,
      imageID,
      state: { waiting: { reason: "CrashLoopBackOff", message: `back-off 5m0s restarting failed container=${name} pod=${pod}` } },
      ...last(run.kind === "killed" ? 137 : 1, run.kind === "killed" ? "OOMKilled" : "Error"),
    };
  }
  const running = { running: { startedAt: restarts > 0 ? restarted : started } };
  return {
    ...base,
    ready: true,
    started: true,
    imageID,
    containerID: containerID(name, restarts),
    state: running,
    ...(run.kind === "panic" ? last(2, "Error") : run.kind === "restarted" ? last(0, "Completed") : {}),
  };
}

export function nodeAddress(node: string): string {
  const index = Number(/(\d+)$/.exec(node)?.[1] ?? 0);
  return `10.0.${Math.floor(index / 250)}.${10 + (index % 250)}`;
}
