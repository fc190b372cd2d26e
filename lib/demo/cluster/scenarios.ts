import { Conflict, Invalid, NotFound } from "@/lib/errors";
import type { ActiveScenario, ApiServerControl, DemoCluster } from "./cluster";
import type { ApiFault } from "./faults";
import { createModel, KEK_IDS, type ClusterModel, type NodeState, type PluginHealth } from "./model";

// Failure scenarios, keyed by the catalog id of the failure mode they reproduce (a few reporting
// conditions that have no catalog entry have their own ids). Each is a pure change to the model;
// clearing one rebuilds the model from its baseline and re-applies the others. API faults (no
// catalog entry) strike the simulated API server instead of the model; see API_SCENARIOS.

export interface ScenarioContext {
  node: NodeState;
  variant?: string;
}

export interface Scenario {
  id: string;
  title: string;
  /** Catalog entry this reproduces; undefined for reporting conditions without one. */
  catalog?: string;
  /** Whether it strikes one node (the --node option), else the whole cluster. */
  perNode: boolean;
  variants?: string[];
  apply: (model: ClusterModel, ctx: ScenarioContext) => void;
  /** An API-server fault: what the server does while it is in force (one fault at a time). */
  apiFault?: (variant?: string) => ApiFault;
  /** A one-off event at the API server (a reset, a restart): it happens when injected, and is never "in force". */
  apiEvent?: (server: ApiServerControl) => Promise<void> | void;
}

const sock = (keyID: string) => `/var/run/kmsplugin/kms-${keyID}.sock`;

/** The first plugin on the node starts answering its health probe with this result. */
function plugin(id: string, title: string, health: PluginHealth, detail: (keyID: string) => string): Scenario {
  return {
    id,
    title,
    catalog: id,
    perNode: true,
    apply: (_m, { node }) => Object.assign(node.plugins[0], { health, detail: detail(node.plugins[0].keyID) }),
  };
}

/** Every plugin fails the same way (a cluster-wide cause such as authentication). */
function allPlugins(id: string, title: string, health: PluginHealth, detail: string, extra?: (m: ClusterModel) => void): Scenario {
  return {
    id,
    title,
    catalog: id,
    perNode: false,
    apply: (m) => {
      for (const node of m.nodes) for (const p of node.plugins) Object.assign(p, { health, detail });
      extra?.(m);
    },
  };
}

function cluster(id: string, title: string, apply: (m: ClusterModel, ctx: ScenarioContext) => void, variants?: string[]): Scenario {
  return { id, title, catalog: id, perNode: false, apply, variants };
}

export const SCENARIOS: Scenario[] = [
  // KMS bootstrap and runtime
  plugin(
    "kms-plugin-unavailable",
    "KMS plugin down on one node",
    "error",
    (k) => `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${sock(k)}: connect: connection refused"`,
  ),
  plugin(
    "kms-socket-unavailable",
    "Plugin socket missing on one node",
    "error",
    () => "bind socket: socket parent directory unsafe: lstat /var/run/kmsplugin: no such file or directory",
  ),
  plugin("kms-stale-socket", "Stale socket left by a crashed plugin", "error", (k) => `listen unix ${sock(k)}: bind: address already in use`),
  plugin(
    "kms-socket-permissions-wrong",
    "Socket permissions keep the API server out",
    "error",
    (k) => `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${sock(k)}: connect: permission denied"`,
  ),
  plugin(
    "kms-selinux-apparmor-block",
    "SELinux or AppArmor denies the socket",
    "error",
    (k) =>
      `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${sock(k)}: connect: permission denied"; type=AVC msg=audit(1790000000.123:842): avc:  denied  { connectto } for  pid=2211 comm="kube-apiserver" path="${sock(k)}" scontext=system_u:system_r:kube_apiserver_t:s0 tcontext=system_u:system_r:unconfined_service_t:s0 tclass=unix_stream_socket permissive=0`,
  ),
  plugin(
    "kms-systemd-ordering-wrong",
    "Plugin starts after the API server",
    "error",
    (k) =>
      `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${sock(k)}: connect: no such file or directory"`,
  ),
  plugin("kms-config-permissions-unsafe", "Plugin refuses a world-readable config", "error", () => "jwt read failed: identity file permissions are too broad"),
  plugin(
    "kms-static-pod-image-unavailable",
    "Plugin image cannot be pulled",
    "error",
    () =>
      `Failed to pull image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0": not found`,
  ),
  {
    id: "kms-plugin-crash-loop",
    title: "Plugin crash-looping on one node",
    catalog: "kms-plugin-crash-loop",
    perNode: true,
    apply: (_m, { node }) => {
      node.plugins[0].flapping = true;
      node.socketRestarts = 12;
    },
  },
  {
    id: "kms-plugin-package-upgrade-restart",
    title: "Package upgrade restarts the plugin",
    catalog: "kms-plugin-package-upgrade-restart",
    perNode: true,
    apply: (_m, { node }) => {
      node.plugins[0].flapping = true;
      node.socketRestarts = 1;
    },
  },
  {
    id: "kms-static-pod-runtime-unavailable",
    title: "Kubelet or runtime down: the node's reporter stops",
    catalog: "kms-static-pod-runtime-unavailable",
    perNode: true,
    apply: (_m, { node }) => {
      node.reporterRunning = false;
    },
  },
  // OpenBao and Transit
  cluster("openbao-unavailable", "OpenBao unreachable", (m) => void (m.openbao.state = "unreachable")),
  cluster("openbao-sealed", "OpenBao sealed", (m) => void (m.openbao.state = "sealed")),
  {
    // As the real plugin answers it: its Status says only "unhealthy" (dc-tec/openbao-kubernetes-kms
    // internal/kmsv2/server.go, the redacted HealthUnhealthy), and with the reporters stopped nothing else on the
    // nodes says why; what remains is kube-apiserver's kms-providers check and OpenBao's own health.
    id: "openbao-sealed-redacted",
    title: "OpenBao sealed, seen only through the redacted kms-providers check",
    catalog: "openbao-sealed",
    perNode: false,
    apply: (m) => {
      m.openbao.state = "sealed";
      for (const node of m.nodes) {
        node.reporterRunning = false;
        for (const p of node.plugins) Object.assign(p, { health: "unhealthy", detail: "unhealthy" });
      }
    },
  },
  cluster("openbao-leader-failover", "OpenBao failing over (only a standby answers)", (m) => {
    m.openbao.state = "standby";
    for (const node of m.nodes)
      for (const p of node.plugins)
        Object.assign(p, {
          health: "unhealthy",
          detail: "openbao transit encrypt failed: Error making API request. Code: 503. Errors: * no active Vault instance found",
        });
  }),
  cluster("openbao-audit-backend-pressure", "OpenBao audit device slow", (m) => void (m.decrypt.latencyFactor = 300)),
  allPlugins(
    "openbao-tls-certificate-expired",
    "OpenBao TLS certificate expired",
    "error",
    "tls: failed to verify certificate: x509: certificate has expired or is not yet valid",
    (m) => void (m.auth.certificateTtlSeconds = -3600),
  ),
  allPlugins(
    "openbao-dns-lb-misrouting",
    "DNS or load balancer sends the plugin elsewhere",
    "error",
    `Put "https://openbao.internal:8200/v1/transit/encrypt/k8s-kek": tls: failed to verify certificate: x509: certificate is valid for bao-other.internal, not openbao.internal`,
  ),
  // Transit key material
  cluster(
    "transit-key-deleted",
    "Transit key deleted (or deletion allowed)",
    (m, { variant }) => {
      m.transit.deletionAllowed = true;
      if (variant !== "deletion-allowed") m.transit.exists = false;
    },
    ["deleted", "deletion-allowed"],
  ),
  cluster("transit-key-soft-deleted", "Transit key soft-deleted", (m) => void (m.transit.softDeleted = true)),
  cluster("transit-key-recreated-same-name", "Transit key recreated under the same name", (m) => {
    m.transit.latestVersion = 1;
    m.decrypt.unknownKeyIdErrors = 240;
    for (const node of m.nodes) for (const p of node.plugins) p.kekID = `${p.kekID}-new`;
  }),
  cluster("transit-min-decryption-version-raised-early", "min_decryption_version raised above versions in use", (m) => {
    m.transit.minDecryptionVersion = m.transit.oldestVersionInUse + 1;
    m.decrypt.unknownKeyIdErrors = 87;
  }),
  // Authentication and issuer state
  allPlugins("jwt-expired-apiserver-down", "Plugin's JWT expired", "unhealthy", "auth login failed: jwt expired: exp claim is not in the future", (m) => {
    m.auth.tokenTtlSeconds = 0;
    m.auth.loginFailures = 17;
  }),
  allPlugins(
    "jwt-file-missing",
    "Plugin's JWT file missing",
    "unhealthy",
    "jwt read failed: open /var/run/secrets/kms/token: no such file or directory",
    (m) => void (m.auth.loginFailures = 5),
  ),
  allPlugins(
    "jwt-wrong-audience",
    "JWT audience does not match the role",
    "unhealthy",
    "Error making API request. URL: PUT https://openbao.internal:8200/v1/auth/jwt/login Code: 400. Errors: * error validating token: invalid audience (aud) claim: audience claim does not match any expected audience",
    (m) => void (m.auth.loginFailures = 9),
  ),
  allPlugins(
    "jwt-wrong-subject-or-claims",
    "JWT subject or claims do not match the role",
    "unhealthy",
    'Error making API request. URL: PUT https://openbao.internal:8200/v1/auth/jwt/login Code: 400. Errors: * claim "sub" does not match any associated bound claim values',
    (m) => void (m.auth.loginFailures = 9),
  ),
  allPlugins(
    "jwt-issuer-changed",
    "JWT issuer changed",
    "unhealthy",
    "Error making API request. URL: PUT https://openbao.internal:8200/v1/auth/jwt/login Code: 400. Errors: * error validating token: invalid issuer (iss) claim",
    (m) => void (m.auth.loginFailures = 9),
  ),
  allPlugins(
    "jwks-rotated",
    "Signing key rotated; OpenBao does not know it",
    "unhealthy",
    "Error making API request. URL: PUT https://openbao.internal:8200/v1/auth/jwt/login Code: 400. Errors: * error validating token: error verifying token signature: no known key successfully validated the token signature",
    (m) => void (m.auth.loginFailures = 9),
  ),
  allPlugins(
    "jwks-or-oidc-discovery-unreachable",
    "OpenBao cannot reach JWKS or OIDC discovery",
    "unhealthy",
    `Error making API request. URL: PUT https://openbao.internal:8200/v1/auth/jwt/login Code: 400. Errors: * error validating token: error verifying token signature: failed to verify signature: fetching keys oidc: get keys failed: Get "https://oidc.example.internal/keys": dial tcp 10.0.0.60:443: i/o timeout`,
    (m) => void (m.auth.loginFailures = 9),
  ),
  {
    id: "clock-skew",
    title: "Node clock ahead by ten minutes",
    catalog: "clock-skew",
    perNode: true,
    apply: (_m, { node }) => {
      node.clockSkewMs = 10 * 60_000;
    },
  },
  allPlugins(
    "auth-certificate-expired",
    "Plugin's client certificate expired",
    "error",
    `Put "https://openbao.internal:8200/v1/auth/cert/login": remote error: tls: expired certificate`,
    (m) => void (m.auth.certificateTtlSeconds = -60),
  ),
  allPlugins(
    "certificate-identity-drift",
    "Client certificate identity does not match the role",
    "unhealthy",
    "Error making API request. URL: PUT https://openbao.internal:8200/v1/auth/cert/login Code: 400. Errors: * no chain matching all constraints could be found for this login certificate",
    (m) => void (m.auth.loginFailures = 4),
  ),
  allPlugins(
    "pkcs11-module-or-token-unavailable",
    "PKCS#11 module or token unavailable",
    "error",
    "auth: pkcs11: 0xE0: CKR_TOKEN_NOT_PRESENT",
    (m) => void (m.auth.loginFailures = 4),
  ),
  allPlugins(
    "spiffe-workload-api-unavailable",
    "SPIFFE Workload API unavailable",
    "error",
    'failed to create X509Source: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/spire/sockets/agent.sock: connect: no such file or directory"',
    (m) => void (m.auth.certificateTtlSeconds = 120),
  ),
  // KMS contract, registry and decrypt
  cluster("status-key-id-differs-from-encrypt", "Status key_id differs from the Encrypt response", (m) => void (m.keyIdFlips = 3)),
  cluster("key-id-flip-flops", "key_id flip-flopping", (m) => void (m.keyIdFlips = 9)),
  cluster("unknown-key-id-on-decrypt", "Decrypt asked for an unknown key_id", (m) => void (m.decrypt.unknownKeyIdErrors = 120)),
  plugin("registry-state-missing", "Registry state file missing", "unhealthy", () => "load registry state: key registry state not found"),
  plugin(
    "registry-state-corrupt-or-rolled-back",
    "Registry state corrupt or rolled back",
    "unhealthy",
    () => "key registry state rollback detected: generation below checkpoint",
  ),
  cluster("annotations-missing-or-malformed", "Ciphertext annotations missing or malformed", (m) => {
    m.decrypt.aadErrors = 12;
    m.decrypt.aadReason = "annotation_invalid";
  }),
  cluster("aad-mismatch", "Additional authenticated data mismatch", (m) => void (m.decrypt.aadErrors = 35)),
  cluster("apiserver-decrypt-storm", "Decrypt storm at API-server start-up", (m) => {
    m.decrypt.latencyFactor = 2000;
    m.decrypt.deadlineExceeded = 40;
  }),
  // Encryption scope
  cluster("identity-fallback-left-enabled", "identity provider still writes plaintext", (m) => void (m.identityFallback = true)),
  // Secret-protection stack
  cluster("webhook-misbehaving", "Webhook configuration deleted in an emergency", (m) => void (m.stack.webhookPresent = false)),
  cluster("webhook-unreachable-ignore", "Webhook unreachable (expired CA) under Ignore", (m) => void (m.stack.webhookCaExpired = true)),
  cluster("webhook-unreachable-fail", "Webhook unreachable under Fail", (m) => {
    m.stack.failurePolicy = "Fail";
    m.stack.operatorReplicas = 0;
  }),
  cluster("operator-down", "Operator scaled to zero", (m) => void (m.stack.operatorReplicas = 0)),
  cluster("ebpf-image-compromised", "eBPF agents not ready (image rejected)", (m) => void (m.stack.ebpfReady = "none")),
  cluster("bridge-down", "Bridge down", (m) => void (m.stack.bridgeAvailable = false)),
  cluster("beacon-down", "Beacon down", (m) => void (m.stack.beaconUp = false)),
  cluster("stack-openbao-down", "OpenBao down for the protection stack", (m) => void (m.openbao.state = "unreachable")),
  cluster(
    "wrapper-crash-once",
    "Wrapper crashed once, restarted",
    (m) => void (m.stack.wrapper = { state: "running", restarts: 1, lastExit: { exitCode: 1, reason: "Error", message: "wrapper exited during start-up" } }),
  ),
  cluster(
    "wrapper-crash-loop",
    "Wrapper crash-looping",
    (m) => void (m.stack.wrapper = { state: "crash-loop", restarts: 9, lastExit: { exitCode: 1, reason: "Error", message: "wrapper exited during start-up" } }),
  ),
  cluster("wrapper-blocked-on-openbao", "Wrapper gives up waiting for OpenBao", (m) => {
    m.openbao.state = "unreachable";
    m.stack.wrapper = {
      state: "crash-loop",
      restarts: 4,
      lastExit: {
        exitCode: 1,
        reason: "Error",
        message: `{"level":"error","msg":"cannot connect to vault","error":"dial tcp 10.0.0.40:8200: connect: connection refused"}`,
      },
    };
  }),
  cluster(
    "wrapper-killed-by-ebpf",
    "Wrapper killed by eBPF enforcement",
    (m) =>
      void (m.stack.wrapper = { state: "running", restarts: 1, lastExit: { exitCode: 137, reason: "Error", message: "killed by the eBPF enforcement hook" } }),
  ),
  // Health-reporting conditions with no catalog entry of their own
  { id: "reporter-stale", title: "A node's health reporter stopped writing", perNode: true, apply: (_m, { node }) => void (node.reporterRunning = false) },
  {
    id: "node-replaced",
    title: "Node replaced: its report is orphaned",
    perNode: true,
    apply: (m, { node }) => {
      node.present = false;
      node.reporterRunning = false;
      m.nodes.push({ ...structuredClone(node), name: `${node.name}-replacement`, present: true, reporterRunning: true });
    },
  },
  {
    id: "kek-disagreement",
    title: "Nodes disagree on the KEK during a rotation",
    perNode: true,
    apply: (_m, { node }) => void (node.plugins[0].kekID = KEK_IDS[2]),
  },
];

const noModel = () => undefined;
const apiFault = (id: string, title: string, fault: (variant?: string) => ApiFault, variants?: string[]): Scenario => ({
  id,
  title,
  perNode: false,
  variants,
  apply: noModel,
  apiFault: fault,
});
const apiEvent = (id: string, title: string, event: (server: ApiServerControl) => Promise<void> | void): Scenario => ({
  id,
  title,
  perNode: false,
  apply: noModel,
  apiEvent: event,
});

/** Faults of the API server itself, so a client's handling of them is rehearsed end to end. */
export const API_SCENARIOS: Scenario[] = [
  apiFault(
    "api-throttled",
    "API server throttles every request (429, Retry-After)",
    (v) => ({ kind: "throttle", retryAfterSeconds: 5, status: v === "503" ? 503 : 429 }),
    ["429", "503"],
  ),
  apiFault("api-blackholed", "API server accepts connections and never answers", () => ({ kind: "blackhole" })),
  apiFault("api-slow", "API server answers slowly", (v) => ({ kind: "slow", delayMs: v === "30s" ? 30_000 : 3_000 }), ["3s", "30s"]),
  apiFault("api-expire-on-resume", "Every watch resume answers 410 Expired", () => ({ kind: "expire-on-resume" })),
  apiEvent("api-watch-reset", "Reset every open watch connection (once)", (server) => void server.faults.resetWatches()),
  apiEvent("api-restart", "Restart the API server with a new resourceVersion history (once)", (server) => server.restart()),
];

SCENARIOS.push(...API_SCENARIOS);

export const isApiScenario = (s: Scenario) => Boolean(s.apiFault ?? s.apiEvent);

/** Whether the fault in force is this scenario's kind (set by the scenario or by a test directly). */
function apiFaultActive(cluster: DemoCluster, scenario: Scenario): boolean {
  const current = cluster.apiServer?.faults.current;
  return Boolean(current && scenario.apiFault && scenario.apiFault(scenario.variants?.[0]).kind === current.kind);
}

const sameFault = (a: ApiFault | undefined, b: ApiFault | undefined) => JSON.stringify(a) === JSON.stringify(b);

export function listScenarios(cluster: DemoCluster) {
  const active = cluster.scenarios;
  return SCENARIOS.map((s) => {
    const { id, title, catalog, perNode, variants } = s;
    if (isApiScenario(s)) {
      const on = apiFaultActive(cluster, s);
      const variant = on ? (variants ?? []).find((v) => sameFault(s.apiFault!(v), cluster.apiServer?.faults.current)) : undefined;
      return {
        id,
        title,
        catalog: null,
        perNode,
        variants: variants ?? [],
        active: on,
        api: true,
        oneShot: Boolean(s.apiEvent),
        ...(on && variant ? { variant } : {}),
      };
    }
    const on = active.find((a) => a.id === id);
    return {
      id,
      title,
      catalog: catalog ?? null,
      perNode,
      variants: variants ?? [],
      active: Boolean(on),
      api: false,
      oneShot: false,
      ...(on?.node ? { node: on.node } : {}),
      ...(on?.variant ? { variant: on.variant } : {}),
    };
  });
}

/**
 * Injects (on=true) or clears a scenario, then rewrites the cluster's objects at once. An API fault
 * acts on the API server that serves the cluster; the returned promise settles when it has (a restart).
 */
export function setScenario(cluster: DemoCluster, id: string, on: boolean, opts: { node?: string; variant?: string } = {}): void | Promise<void> {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new NotFound(`no scenario "${id}"; the list of scenarios names every one (npm run demo -- list)`);
  if (opts.variant && !(scenario.variants ?? []).includes(opts.variant)) {
    throw new Invalid(`scenario "${id}" has no variant "${opts.variant}"${scenario.variants ? `; variants: ${scenario.variants.join(", ")}` : ""}`);
  }
  if (isApiScenario(scenario)) return setApiScenario(cluster, scenario, on, opts.variant);
  const baseline = cluster.model.nodes.filter((n) => !n.name.endsWith("-replacement"));
  if (opts.node && !baseline.some((n) => n.name === opts.node))
    throw new Invalid(`no node "${opts.node}"; nodes are ${baseline[0].name} to ${baseline[baseline.length - 1].name}`);
  const active = cluster.scenarios.filter((a) => a.id !== id);
  if (on) active.push({ id, node: scenario.perNode ? (opts.node ?? baseline[Math.min(1, baseline.length - 1)].name) : undefined, variant: opts.variant });
  cluster.scenarios = active;
  rebuild(cluster, active);
}

function setApiScenario(cluster: DemoCluster, scenario: Scenario, on: boolean, variant?: string): void | Promise<void> {
  // Clearing a fault that is not in force changes nothing, as clearing a model scenario does.
  const server = cluster.apiServer;
  if (!server) throw new Conflict(`scenario "${scenario.id}" strikes the API server, and no API server serves this cluster`);
  if (scenario.apiEvent) return on ? scenario.apiEvent(server) : undefined;
  if (on) server.faults.set(scenario.apiFault!(variant ?? scenario.variants?.[0]));
  else if (apiFaultActive(cluster, scenario)) server.faults.clear();
}

function rebuild(cluster: DemoCluster, active: ActiveScenario[]): void {
  const m = cluster.model;
  const fresh = createModel({
    name: m.name,
    nodes: m.nodes.filter((n) => !n.name.endsWith("-replacement")).length,
    pluginsPerNode: m.nodes[0].plugins.length,
    design: m.design,
    intervalMs: m.intervalMs,
  });
  Object.assign(m, fresh, { active: new Set(active.map((a) => a.id)) });
  for (const a of active) {
    const scenario = SCENARIOS.find((s) => s.id === a.id)!;
    const node = m.nodes.find((n) => n.name === a.node) ?? m.nodes[0];
    scenario.apply(m, { node, variant: a.variant });
  }
  cluster.sync();
  cluster.report();
}
