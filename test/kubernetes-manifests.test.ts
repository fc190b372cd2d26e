import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseEnv } from "@/lib/env";
import { RULE_FILES } from "@/lib/exporter/rule-files";
import { IMAGE } from "@/scripts/image-spec";
import { kustomize, schemaErrors, unknownFields, type KubeObject } from "@/test/kubernetes-schema";

// deploy/kubernetes as a platform team installs it (docs/deploy.md): rendered by Debian's kubectl, every object
// checked against the Kubernetes API's schemas offline (test/kubernetes-schema.ts), then what the install relies on.

let installed: KubeObject[];
let watched: KubeObject[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rendered manifests are read field by field
const one = (objects: KubeObject[], kind: string): any => {
  const found = objects.filter((o) => o.kind === kind);
  expect(
    found.map((o) => o.metadata.name),
    `one ${kind}`,
  ).toHaveLength(1);
  return found[0];
};

beforeAll(() => {
  installed = kustomize("deploy/kubernetes");
  watched = kustomize("deploy/kubernetes/watched");
});

describe("the manifests validate against the Kubernetes API schemas", () => {
  it("every rendered object, with no field the API does not have", { timeout: 120_000 }, async () => {
    const all = [...installed, ...watched];
    expect(all.map((o) => o.kind).sort()).toEqual(
      [
        "ClusterRole",
        "ClusterRoleBinding",
        "ConfigMap",
        "Deployment",
        "Namespace",
        "Namespace",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "PrometheusRule",
        "Secret",
        "Service",
        "ServiceAccount",
        "ServiceAccount",
        "ServiceMonitor",
      ].sort(),
    );
    const errors = (await Promise.all(all.map(schemaErrors))).flat();
    expect(errors).toEqual([]);
    expect(unknownFields(all)).toEqual([]);
  });

  it("catches a misspelled field, a wrong type and a missing required field", { timeout: 120_000 }, async () => {
    const deployment = structuredClone(one(installed, "Deployment"));
    const container = deployment.spec.template.spec.containers[0];
    container.readinessProbes = container.readinessProbe;
    deployment.spec.template.spec.securityContext.runAsUser = "root";
    delete deployment.spec.selector;
    const monitor = structuredClone(one(installed, "ServiceMonitor"));
    monitor.spec.endpoints[0].scrapeInterval = "30s";
    const schema = (await schemaErrors(deployment)).join("\n");
    expect(schema).toContain("securityContext/runAsUser must be integer");
    expect(schema).toContain("data/spec must have required property selector");
    const unknown = unknownFields([deployment, monitor]).join("\n");
    expect(unknown).toMatch(/Deployment\/faultline: .*'"readinessProbes"' does not exist/);
    expect(unknown).toMatch(/ServiceMonitor\/faultline: .*'"scrapeInterval"' does not exist/);
  });
});

describe("the install", () => {
  it("runs two replicas that a drain or a rollout never takes both of", () => {
    const deployment = one(installed, "Deployment");
    const pods = deployment.spec.template.metadata.labels;
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.selector.matchLabels).toEqual(pods);
    expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    const budget = one(installed, "PodDisruptionBudget");
    expect(budget.spec.selector.matchLabels).toEqual(pods);
    expect(budget.spec.minAvailable).toBe(1);
  });

  it("probes the app's own health routes on its port", () => {
    const container = one(installed, "Deployment").spec.template.spec.containers[0];
    const routes = { readinessProbe: "/api/readyz", livenessProbe: "/api/healthz", startupProbe: "/api/healthz" };
    for (const [probe, route] of Object.entries(routes)) {
      expect(container[probe]?.httpGet, probe).toMatchObject({ path: route, port: "http" });
      expect(existsSync(path.join("app", route, "route.ts")), `app${route}/route.ts`).toBe(true);
    }
    expect(container.ports).toEqual([{ name: "http", containerPort: 3000, protocol: "TCP" }]);
  });

  it("runs as the image's user, with no privilege, on a read-only root whose writable paths are volumes", () => {
    const pod = one(installed, "Deployment").spec.template.spec;
    const container = pod.containers[0];
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: IMAGE.uid, runAsGroup: IMAGE.uid, seccompProfile: { type: "RuntimeDefault" } });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ["ALL"] },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    const mounts = container.volumeMounts.map((m: { mountPath: string }) => m.mountPath);
    expect(mounts).toEqual(expect.arrayContaining([IMAGE.dataDir, "/tmp"]));
    const emptyDirs = pod.volumes.filter((v: { emptyDir?: object }) => v.emptyDir).map((v: { name: string }) => v.name);
    for (const mount of container.volumeMounts.filter((m: { readOnly?: boolean }) => !m.readOnly)) expect(emptyDirs).toContain(mount.name);
  });

  it("ships settings the app accepts at start-up, with its secrets only by reference", () => {
    const deployment = one(installed, "Deployment");
    const container = deployment.spec.template.spec.containers[0];
    const config = one(installed, "ConfigMap");
    expect(container.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }, { secretRef: { name: "faultline" } }]);
    expect(config.data.FAULTLINE_DATA_DIR).toBe(IMAGE.dataDir);
    // The kubelet expands $(POD_IP); the probes and Prometheus send the pod's address as Host.
    const env = Object.fromEntries(container.env.filter((e: { value?: string }) => e.value).map((e: { name: string; value: string }) => [e.name, e.value]));
    env.FAULTLINE_ALLOWED_HOSTS = env.FAULTLINE_ALLOWED_HOSTS.replace("$(POD_IP)", "10.128.4.17");
    const secret = {
      DATABASE_URL: "postgresql://faultline:pw@postgres.db.svc:5432/faultline",
      FAULTLINE_OIDC_CLIENT_SECRET: "client-secret",
      FAULTLINE_METRICS_TOKEN: "m".repeat(32),
      FAULTLINE_WEBHOOK_TOKEN: "w".repeat(32),
    };
    const parsed = parseEnv({ ...config.data, ...secret, ...env });
    expect(parsed.HOST).toBe("0.0.0.0");
    expect(parsed.FAULTLINE_ALLOWED_HOSTS).toContain("10.128.4.17");
    const secretKeys = new Set(Object.keys(secret));
    expect(Object.keys(config.data).filter((k) => secretKeys.has(k))).toEqual([]);
    for (const s of [...installed, ...watched].filter((o) => o.kind === "Secret")) expect(s).not.toHaveProperty("data");
  });

  it("serves the pods on a Service that the ServiceMonitor scrapes with the metrics token, and the policy lets in", () => {
    const pods = one(installed, "Deployment").spec.template.metadata.labels;
    const service = one(installed, "Service");
    expect(service.spec.selector).toEqual(pods);
    expect(service.spec.ports).toEqual([{ name: "http", port: 80, targetPort: "http", protocol: "TCP" }]);
    const monitor = one(installed, "ServiceMonitor");
    expect(monitor.spec.selector.matchLabels).toEqual(service.metadata.labels);
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: "http", path: "/metrics" })]);
    expect(monitor.spec.endpoints[0].authorization.credentials).toEqual({ name: "faultline", key: "FAULTLINE_METRICS_TOKEN" });
    const policy = one(installed, "NetworkPolicy");
    expect(policy.spec.podSelector.matchLabels).toEqual(pods);
    expect(policy.spec.ingress).toEqual([{ ports: [{ port: "http", protocol: "TCP" }] }]);
    expect(policy.spec.egress.flatMap((rule: { ports: { port: number }[] }) => rule.ports.map((p) => p.port))).toEqual(expect.arrayContaining([53, 5432]));
  });

  it("carries the PrometheusRule that rules:render writes, in the install's namespace", () => {
    const rule = one(installed, "PrometheusRule");
    const shipped = parse(readFileSync(RULE_FILES.manifest, "utf8"));
    expect(rule.spec).toEqual(shipped.spec);
    expect(rule.metadata.namespace).toBe("faultline");
  });
});

describe("a watched cluster", () => {
  it("binds the read-only ClusterRole to the reader whose token the kubeconfig carries", () => {
    const role = one(watched, "ClusterRole");
    expect(role).toEqual(parse(readFileSync("deploy/kubernetes/watched/clusterrole.yaml", "utf8")));
    const verbs = new Set(role.rules.flatMap((r: { verbs: string[] }) => r.verbs));
    expect([...verbs].sort()).toEqual(["get", "list", "watch"]);
    expect(role.rules.some((r: { resources?: string[] }) => r.resources?.includes("secrets"))).toBe(false);
    const binding = one(watched, "ClusterRoleBinding");
    const reader = one(watched, "ServiceAccount");
    expect(binding.roleRef).toEqual({ apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role.metadata.name });
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: reader.metadata.name, namespace: reader.metadata.namespace }]);
    const token = one(watched, "Secret");
    expect(token.type).toBe("kubernetes.io/service-account-token");
    expect(token.metadata.annotations["kubernetes.io/service-account.name"]).toBe(reader.metadata.name);
  });
});
