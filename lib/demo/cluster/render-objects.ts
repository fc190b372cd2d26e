import { createHash } from "node:crypto";
import type { JsonObject } from "./fields";
import { managerFor, probe, type ClusterModel } from "./model";

// Kubernetes objects for the simulated cluster, in the shapes of ../shared/fixtures.

const NS = "cloudtaser-system";
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

function condition(type: string, status: string, reason: string, message: string, since: string): JsonObject {
  return { type, status, lastTransitionTime: since, reason, message };
}

/** The operator conditions library-go writes; KMS reporting is added by the reporters. */
export function operatorCr(kind: string, since: string, nodes: number): JsonObject {
  return {
    apiVersion: "operator.openshift.io/v1",
    kind,
    metadata: { name: "cluster", annotations: { "include.release.openshift.io/self-managed-high-availability": "true" } },
    spec: { managementState: "Managed", logLevel: "Normal", operatorLogLevel: "Normal" },
    status: {
      conditions: [
        condition("NodeControllerDegraded", "False", "MasterNodesReady", "All master nodes are ready", since),
        condition("StaticPodsAvailable", "True", "AsExpected", `${nodes} nodes are active; ${nodes} nodes are at revision 14`, since),
        condition("Encrypted", "True", "EncryptionCompleted", "All resources encrypted: secrets, configmaps", since),
        condition("EncryptionKeyControllerDegraded", "False", "AsExpected", "", since),
        condition("EncryptionMigrationControllerDegraded", "False", "AsExpected", "", since),
      ],
    },
  };
}

export function clusterOperator(since: string): JsonObject {
  return {
    apiVersion: "config.openshift.io/v1",
    kind: "ClusterOperator",
    metadata: { name: "kube-apiserver" },
    spec: {},
    status: {
      conditions: [
        condition("Available", "True", "AsExpected", "StaticPodsAvailable: 3 nodes are active; 3 nodes are at revision 14", since),
        condition("Progressing", "False", "AsExpected", "NodeInstallerProgressing: 3 nodes are at revision 14", since),
        // No KMS aggregator exists in the shipped operator, so plugin health never reaches Degraded here.
        condition("Degraded", "False", "AsExpected", "NodeControllerDegraded: All master nodes are ready", since),
        condition("Upgradeable", "True", "AsExpected", "KubeletMinorVersionUpgradeable: Kubelet and API server minor versions are synced.", since),
      ],
      versions: [
        { name: "operator", version: "4.22.0" },
        { name: "raw-internal", version: "4.22.0" },
        { name: "kube-apiserver", version: "1.35.3" },
      ],
      relatedObjects: [
        { group: "operator.openshift.io", resource: "kubeapiservers", name: "cluster" },
        { group: "", resource: "namespaces", name: "openshift-kube-apiserver" },
        { group: "config.openshift.io", resource: "nodes", name: "cluster" },
      ],
    },
  };
}

export function nodeObject(name: string, since: string): JsonObject {
  // Complete enough for kubectl's -o wide columns and for the official clients' required fields.
  const index = Number(/(\d+)$/.exec(name)?.[1] ?? 0);
  const id = createHash("sha256").update(name).digest("hex");
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "node-role.kubernetes.io/master": "",
        "node-role.kubernetes.io/control-plane": "",
      },
    },
    spec: { taints: [{ key: "node-role.kubernetes.io/master", effect: "NoSchedule" }] },
    status: {
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "KubeletReady",
          message: "kubelet is posting ready status",
          lastHeartbeatTime: since,
          lastTransitionTime: since,
        },
      ],
      addresses: [
        { type: "InternalIP", address: `10.0.${Math.floor(index / 250)}.${10 + (index % 250)}` },
        { type: "Hostname", address: name },
      ],
      nodeInfo: {
        architecture: "amd64",
        bootID: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`,
        containerRuntimeVersion: "cri-o://1.35.1-2.rhaos4.22.el9",
        kernelVersion: "5.14.0-570.12.1.el9_6.x86_64",
        kubeProxyVersion: "",
        kubeletVersion: "v1.35.3",
        machineID: id.slice(32, 64),
        operatingSystem: "linux",
        osImage: "Red Hat Enterprise Linux CoreOS 9.6.20260301-0 (Plow)",
        systemUUID: `${id.slice(32, 40)}-${id.slice(40, 44)}-${id.slice(44, 48)}-${id.slice(48, 52)}-${id.slice(52, 64)}`,
      },
    },
  };
}

export function stackObjects(model: ClusterModel): { plural: string; group: string; object: JsonObject }[] {
  const s = model.stack;
  const desired = model.nodes.filter((n) => n.present).length;
  const ready = s.ebpfReady === "all" ? desired : 0;
  const deployment = (name: string, replicas: number, available: number, image: string): JsonObject => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: NS, labels: { "app.kubernetes.io/name": name } },
    spec: {
      replicas,
      selector: { matchLabels: { "app.kubernetes.io/name": name } },
      template: { metadata: { labels: { "app.kubernetes.io/name": name } }, spec: { containers: [{ name, image }] } },
    },
    status: {
      observedGeneration: 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: available,
      availableReplicas: available,
      ...(available < replicas ? { unavailableReplicas: replicas - available } : {}),
      conditions: [
        {
          type: "Available",
          status: available >= Math.min(1, replicas) && replicas > 0 ? "True" : "False",
          reason: available > 0 ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable",
          message: available > 0 ? "Deployment has minimum availability." : "Deployment does not have minimum availability.",
        },
      ],
    },
  });
  const objects: { plural: string; group: string; object: JsonObject }[] = [
    {
      plural: "deployments",
      group: "apps",
      object: deployment("cloudtaser-operator", s.operatorReplicas, s.operatorReplicas, "ghcr.io/cloudtaser/cloudtaser-operator:v0.9.0"),
    },
    {
      plural: "deployments",
      group: "apps",
      object: deployment("cloudtaser-bridge", 1, s.bridgeAvailable ? 1 : 0, "ghcr.io/cloudtaser/cloudtaser-bridge:v0.9.0"),
    },
    {
      plural: "daemonsets",
      group: "apps",
      object: {
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        metadata: { name: "cloudtaser-ebpf", namespace: NS, labels: { "app.kubernetes.io/name": "cloudtaser-ebpf" } },
        spec: {
          selector: { matchLabels: { "app.kubernetes.io/name": "cloudtaser-ebpf" } },
          template: {
            metadata: { labels: { "app.kubernetes.io/name": "cloudtaser-ebpf" } },
            spec: { hostPID: true, containers: [{ name: "ebpf", image: "ghcr.io/cloudtaser/cloudtaser-ebpf:v0.9.0", securityContext: { privileged: true } }] },
          },
        },
        status: {
          currentNumberScheduled: desired,
          desiredNumberScheduled: desired,
          numberMisscheduled: 0,
          numberReady: ready,
          numberAvailable: ready,
          updatedNumberScheduled: desired,
          observedGeneration: 1,
          ...(ready < desired ? { numberUnavailable: desired - ready } : {}),
        },
      },
    },
  ];
  objects.push({ plural: "pods", group: "", object: workloadPod(model) });
  // The webhook's Service is backed by the operator's pods: no ready replica, no endpoint.
  const addresses = Array.from({ length: s.operatorReplicas }, (_, i) => ({
    ip: `10.128.0.${20 + i}`,
    targetRef: { kind: "Pod", namespace: NS, name: `cloudtaser-operator-${i}` },
  }));
  objects.push({
    plural: "endpoints",
    group: "",
    object: {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "cloudtaser-operator-webhook", namespace: NS, labels: { "app.kubernetes.io/name": "cloudtaser-operator" } },
      subsets: addresses.length > 0 ? [{ addresses, ports: [{ name: "https", port: 9443, protocol: "TCP" }] }] : [],
    },
  });
  if (s.webhookPresent) {
    objects.push({
      plural: "mutatingwebhookconfigurations",
      group: "admissionregistration.k8s.io",
      object: {
        apiVersion: "admissionregistration.k8s.io/v1",
        kind: "MutatingWebhookConfiguration",
        metadata: { name: "cloudtaser-operator-webhook", labels: { "app.kubernetes.io/name": "cloudtaser-operator" } },
        webhooks: [
          {
            name: "inject.cloudtaser.io",
            admissionReviewVersions: ["v1"],
            clientConfig: {
              service: { namespace: NS, name: "cloudtaser-operator-webhook", path: "/mutate", port: 443 },
              caBundle: s.webhookCaExpired ? EXPIRED_CA : VALID_CA,
            },
            failurePolicy: s.failurePolicy,
            matchPolicy: "Equivalent",
            objectSelector: { matchExpressions: [{ key: "cloudtaser.io/inject", operator: "In", values: ["true"] }] },
            reinvocationPolicy: "Never",
            rules: [{ apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["pods"], scope: "*" }],
            sideEffects: "None",
            timeoutSeconds: 10,
          },
        ],
      },
    });
  }
  return objects;
}

/** An injected workload: the wrapper runs as PID 1 of its container. */
function workloadPod(model: ClusterModel): JsonObject {
  const w = model.stack.wrapper;
  const started = "2026-01-01T00:00:00Z";
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "payments-api-7d9f8c6b5-x2k4p",
      namespace: "payments",
      labels: { app: "payments-api", "cloudtaser.io/inject": "true" },
      annotations: { "cloudtaser.io/inject": "true" },
    },
    spec: {
      restartPolicy: "Always",
      nodeName: "master-0",
      serviceAccountName: "default",
      schedulerName: "default-scheduler",
      containers: [{ name: "api", image: "registry.example/payments-api:1.4.2", command: ["/cloudtaser/wrapper"] }],
    },
    status: {
      phase: "Running",
      hostIP: "10.0.0.10",
      podIP: "10.128.2.17",
      podIPs: [{ ip: "10.128.2.17" }],
      startTime: started,
      qosClass: "BestEffort",
      conditions: ["Initialized", "Ready", "ContainersReady", "PodScheduled"].map((type) => ({
        type,
        status: type.endsWith("Ready") && w.state !== "running" ? "False" : "True",
        lastTransitionTime: started,
        lastProbeTime: null,
      })),
      containerStatuses: [
        {
          name: "api",
          ready: w.state === "running",
          started: w.state === "running",
          restartCount: w.restarts,
          image: "registry.example/payments-api:1.4.2",
          imageID: "registry.example/payments-api@sha256:5b0c7c1e4f3a9d2b8e6f1a0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
          containerID: "cri-o://8f14e45fceea167a5a36dedd4bea2543d1c5f1e8b0e6f5a7c9d3b2a1e0f4c6d8",
          state:
            w.state === "running"
              ? { running: { startedAt: started } }
              : { waiting: { reason: "CrashLoopBackOff", message: `back-off 5m0s restarting failed container=api pod=payments-api-7d9f8c6b5-x2k4p_payments` } },
          ...(w.lastExit ? { lastState: { terminated: { ...w.lastExit, startedAt: started, finishedAt: started } } } : {}),
        },
      ],
    },
  };
}

/** What each running reporter applies this tick: one condition (or typed reports) per node. */
/**
 * One probe round of the health reporters that write to one operator CR. The kube-apiserver's run on
 * every node; the aggregated API servers' (OpenShiftAPIServer, Authentication) run beside their
 * Deployment's replicas, here the first three nodes.
 */
const AGGREGATED_REPLICAS = 3;

export function reporterApplies(
  model: ClusterModel,
  now: Date,
  tick: number,
  firstSeen: Map<string, string>,
  kind: "KubeAPIServer" | "OpenShiftAPIServer" | "Authentication" = "KubeAPIServer",
): { manager: string; body: JsonObject }[] {
  const applies: { manager: string; body: JsonObject }[] = [];
  const nodes = kind === "KubeAPIServer" ? model.nodes : model.nodes.slice(0, AGGREGATED_REPLICAS);
  for (const node of nodes) {
    if (!node.present || !node.reporterRunning) continue;
    const checked = iso(new Date(now.getTime() + node.clockSkewMs));
    const results = node.plugins.map((plugin) => ({ plugin, ...probe(model, node, plugin, tick) }));
    let status: JsonObject;
    if (model.design === "condition") {
      const message = JSON.stringify(
        results.map(({ plugin, status: s, detail }) => ({
          keyID: plugin.keyID,
          ...(s === "error" ? {} : { kekID: plugin.kekID }),
          status: s,
          lastChecked: checked,
          ...(s === "healthy" || !detail ? {} : { detail }),
        })),
      );
      const type = `KMSHealthReporter_${node.name}`;
      const seenKey = `${kind}/${type}`;
      if (!firstSeen.has(seenKey)) firstSeen.set(seenKey, checked);
      status = { conditions: [{ type, status: "True", reason: "AsExpected", message, lastTransitionTime: firstSeen.get(seenKey)! }] };
    } else {
      const title = { healthy: "Healthy", unhealthy: "Unhealthy", error: "Error" } as const;
      status = {
        encryptionStatus: {
          healthReports: results.map(({ plugin, status: s, detail }) => ({
            nodeName: node.name,
            keyID: plugin.keyID,
            status: title[s],
            lastCheckedTime: checked,
            // The CRD requires remoteKeyID; this reporter always sends the last one it knew.
            remoteKeyID: plugin.kekID,
            ...(s === "healthy" || !detail ? {} : { detail }),
          })),
        },
      };
    }
    applies.push({ manager: managerFor(node.name), body: { apiVersion: "operator.openshift.io/v1", kind, metadata: { name: "cluster" }, status } });
  }
  return applies;
}

// Public certificates only (their keys were discarded): CN=cloudtaser-operator-webhook.cloudtaser-system.svc,
// one valid until 2036-12-31, one that expired on 2026-03-01. A webhook's caBundle is public data.
const VALID_CA = Buffer.from(
  `-----BEGIN CERTIFICATE-----
MIIBYDCCAQYCAQEwCgYIKoZIzj0EAwIwPDE6MDgGA1UEAwwxY2xvdWR0YXNlci1v
cGVyYXRvci13ZWJob29rLmNsb3VkdGFzZXItc3lzdGVtLnN2YzAeFw0yNjAxMDEw
MDAwMDBaFw0zNjEyMzEwMDAwMDBaMDwxOjA4BgNVBAMMMWNsb3VkdGFzZXItb3Bl
cmF0b3Itd2ViaG9vay5jbG91ZHRhc2VyLXN5c3RlbS5zdmMwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATh9Fq8+VYSl6uzboFYy1nZ+hW0jr84yYlnXQnaGy0Kz1lf
1KCGaggQnm+160yOUJCHPFg1WiyArHoTyEl3aTTTMAoGCCqGSM49BAMCA0gAMEUC
IA5q74Z5xw8b8faHR4NY4/7QJdPeoQTTMemr2nwFV+ybAiEAqRzkj5JyaZsF8QaK
eRzbyzknVfcGzmjx+3GRxBT+H7M=
-----END CERTIFICATE-----\n`,
).toString("base64");
const EXPIRED_CA = Buffer.from(
  `-----BEGIN CERTIFICATE-----
MIIBYDCCAQYCAQIwCgYIKoZIzj0EAwIwPDE6MDgGA1UEAwwxY2xvdWR0YXNlci1v
cGVyYXRvci13ZWJob29rLmNsb3VkdGFzZXItc3lzdGVtLnN2YzAeFw0yNTAxMDEw
MDAwMDBaFw0yNjAzMDEwMDAwMDBaMDwxOjA4BgNVBAMMMWNsb3VkdGFzZXItb3Bl
cmF0b3Itd2ViaG9vay5jbG91ZHRhc2VyLXN5c3RlbS5zdmMwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATSSsZ8fU1gnjsHleQVFEzLjyTNKoqqI+nlcdsEMgVjLE06
UoX6L7Oc5qBICGFi67jyr8Y7+07FpG0+b/DXZzFoMAoGCCqGSM49BAMCA0gAMEUC
IQCyTwXssn1989ED2MrrxoWnfbvhTog96YJmfMdYgek7MgIgAyL4PfDykyrxWSjH
xW4Wco5iekg4kxyma7QHTHopMkM=
-----END CERTIFICATE-----\n`,
).toString("base64");
