// The resources the simulated API server serves: enough of Kubernetes' discovery for
// @kubernetes/client-node and kubectl-style clients, no more.

export interface ResourceType {
  group: string; // "" for the core group
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** Keys of list-type=map lists under status, for server-side apply (path -> key fields). */
  listMapKeys?: Record<string, string[]>;
}

// Only what the simulator serves is advertised: discovery must not promise create, update or delete.
const READ = ["get", "list", "watch"];
const WRITE = [...READ, "patch"];

const OPERATOR_LIST_KEYS = {
  "status.conditions": ["type"],
  "status.encryptionStatus.healthReports": ["nodeName", "keyID"],
};

export const RESOURCES: ResourceType[] = [
  {
    group: "operator.openshift.io",
    version: "v1",
    plural: "kubeapiservers",
    kind: "KubeAPIServer",
    namespaced: false,
    verbs: WRITE,
    listMapKeys: OPERATOR_LIST_KEYS,
  },
  {
    group: "operator.openshift.io",
    version: "v1",
    plural: "openshiftapiservers",
    kind: "OpenShiftAPIServer",
    namespaced: false,
    verbs: WRITE,
    listMapKeys: OPERATOR_LIST_KEYS,
  },
  {
    group: "operator.openshift.io",
    version: "v1",
    plural: "authentications",
    kind: "Authentication",
    namespaced: false,
    verbs: WRITE,
    listMapKeys: OPERATOR_LIST_KEYS,
  },
  {
    group: "config.openshift.io",
    version: "v1",
    plural: "clusteroperators",
    kind: "ClusterOperator",
    namespaced: false,
    verbs: WRITE,
    shortNames: ["co"],
    listMapKeys: { "status.conditions": ["type"] },
  },
  { group: "", version: "v1", plural: "nodes", kind: "Node", namespaced: false, verbs: WRITE, shortNames: ["no"] },
  { group: "", version: "v1", plural: "pods", kind: "Pod", namespaced: true, verbs: WRITE, shortNames: ["po"], categories: ["all"] },
  { group: "", version: "v1", plural: "namespaces", kind: "Namespace", namespaced: false, verbs: READ, shortNames: ["ns"] },
  { group: "", version: "v1", plural: "endpoints", kind: "Endpoints", namespaced: true, verbs: WRITE, shortNames: ["ep"] },
  { group: "apps", version: "v1", plural: "deployments", kind: "Deployment", namespaced: true, verbs: WRITE, shortNames: ["deploy"], categories: ["all"] },
  { group: "apps", version: "v1", plural: "daemonsets", kind: "DaemonSet", namespaced: true, verbs: WRITE, shortNames: ["ds"], categories: ["all"] },
  {
    group: "admissionregistration.k8s.io",
    version: "v1",
    plural: "mutatingwebhookconfigurations",
    kind: "MutatingWebhookConfiguration",
    namespaced: false,
    verbs: WRITE,
  },
];

export function apiVersionOf(type: ResourceType): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

export function findResource(group: string, version: string, plural: string): ResourceType | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

export function resourceKey(type: ResourceType): string {
  return `${type.group}/${type.version}/${type.plural}`;
}
