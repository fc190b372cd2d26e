import { createHash } from "node:crypto";

// The state of one simulated cluster, in domain terms. Scenarios change it; the reporter and the
// endpoints render it into the real shapes (objects, health bodies, metrics).

export type PluginHealth = "healthy" | "unhealthy" | "error";
export type OpenBaoState = "active" | "standby" | "sealed" | "uninitialized" | "unreachable";

export interface PluginState {
  keyID: string;
  kekID: string;
  health: PluginHealth;
  detail?: string;
  /** Alternate healthy/error on every probe (crash loop). */
  flapping?: boolean;
}

export interface NodeState {
  name: string;
  /** false once the node was replaced: its Node object is gone, its report stays. */
  present: boolean;
  reporterRunning: boolean;
  clockSkewMs: number;
  plugins: PluginState[];
  socketRestarts: number;
}

export interface ClusterModel {
  name: string;
  design: "condition" | "typed";
  intervalMs: number;
  nodes: NodeState[];
  openbao: { state: OpenBaoState; version: string };
  transit: {
    name: string;
    exists: boolean;
    deletionAllowed: boolean;
    softDeleted: boolean;
    minDecryptionVersion: number;
    latestVersion: number;
    /** The oldest key version stored data still needs. */
    oldestVersionInUse: number;
  };
  auth: { tokenTtlSeconds: number; certificateTtlSeconds: number; loginFailures: number };
  /** aadReason: the plugin's bounded reason for its AAD refusals (aad_mismatch, annotation_invalid, aad_missing). */
  decrypt: { unknownKeyIdErrors: number; aadErrors: number; aadReason: string; latencyFactor: number; deadlineExceeded: number };
  keyIdFlips: number;
  identityFallback: boolean;
  stack: {
    webhookPresent: boolean;
    webhookCaExpired: boolean;
    failurePolicy: "Ignore" | "Fail";
    operatorReplicas: number;
    ebpfReady: "all" | "none";
    bridgeAvailable: boolean;
    beaconUp: boolean;
    /** The injected demo workload's wrapper: how its container last ended and how it runs now. */
    wrapper: { state: "running" | "crash-loop"; restarts: number; lastExit?: { exitCode: number; reason: string; message: string } };
  };
  /** Catalog ids of the scenarios in force. */
  active: Set<string>;
}

export const KEK_IDS = ["kek-3b9a22", "kek-7c41e0", "kek-91d5f3"];

export function managerFor(node: string): string {
  return `kms-health-reporter-${createHash("sha256").update(node).digest("hex")}`;
}

export function keyIdHash(value: string): string {
  return `sha256:${createHash("sha256").update(value).digest("hex")}`;
}

export interface ModelOptions {
  name?: string;
  nodes?: number;
  pluginsPerNode?: number;
  design?: "condition" | "typed";
  intervalMs?: number;
}

export function createModel(options: ModelOptions = {}): ClusterModel {
  const count = options.nodes ?? 3;
  const plugins = options.pluginsPerNode ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > 5000) throw new RangeError(`nodes must be 1 to 5000, got ${count}`);
  if (!Number.isInteger(plugins) || plugins < 1 || plugins > 3) throw new RangeError(`pluginsPerNode must be 1 to 3, got ${plugins}`);
  return {
    name: options.name ?? "demo",
    design: options.design ?? "condition",
    intervalMs: options.intervalMs ?? 30_000,
    nodes: Array.from({ length: count }, (_, i) => ({
      name: `master-${i}`,
      present: true,
      reporterRunning: true,
      clockSkewMs: 0,
      socketRestarts: 0,
      // Newest (write) key first, as reporters list them; with two plugins a KMS-to-KMS migration
      // from keyID 1 to keyID 2 is under way.
      plugins: Array.from({ length: plugins }, (_, p) => ({ keyID: String(plugins - p), kekID: KEK_IDS[plugins - p - 1], health: "healthy" as const })),
    })),
    openbao: { state: "active", version: "2.4.1" },
    transit: { name: "k8s-kek", exists: true, deletionAllowed: false, softDeleted: false, minDecryptionVersion: 1, latestVersion: 3, oldestVersionInUse: 2 },
    auth: { tokenTtlSeconds: 2764800, certificateTtlSeconds: 7776000, loginFailures: 0 },
    decrypt: { unknownKeyIdErrors: 0, aadErrors: 0, aadReason: "aad_mismatch", latencyFactor: 1, deadlineExceeded: 0 },
    keyIdFlips: 0,
    identityFallback: false,
    stack: {
      webhookPresent: true,
      webhookCaExpired: false,
      failurePolicy: "Ignore",
      operatorReplicas: 2,
      ebpfReady: "all",
      bridgeAvailable: true,
      beaconUp: true,
      wrapper: { state: "running", restarts: 0 },
    },
    active: new Set(),
  };
}

/** What a probe of one plugin sees right now, with the reasons the model knows. */
export function probe(model: ClusterModel, node: NodeState, plugin: PluginState, tick: number): { status: PluginHealth; detail?: string } {
  if (plugin.flapping) {
    // Down between restarts: the dial finds the socket its last instance left, unless the plugin says otherwise.
    return tick % 2 === 0
      ? {
          status: "error",
          detail:
            plugin.detail ??
            `rpc error: code = Unavailable desc = connection error: dial unix /var/run/kmsplugin/kms-${plugin.keyID}.sock: connect: connection refused`,
        }
      : { status: "healthy" };
  }
  if (plugin.health !== "healthy") return { status: plugin.health, detail: plugin.detail };
  const bao = model.openbao.state;
  if (bao === "sealed")
    return {
      status: "unhealthy",
      detail: "Error making API request. URL: PUT https://openbao.internal:8200/v1/transit/encrypt/k8s-kek Code: 503. Errors: * Vault is sealed",
    };
  if (bao === "unreachable")
    return { status: "error", detail: 'Put "https://openbao.internal:8200/v1/transit/encrypt/k8s-kek": dial tcp 10.0.0.40:8200: connect: connection refused' };
  if (bao === "uninitialized") return { status: "unhealthy", detail: "openbao: Vault is not initialized (code 501)" };
  if (!model.transit.exists) return { status: "unhealthy", detail: "openbao transit metadata read failed: not_found (status 404)" };
  if (model.transit.softDeleted)
    return {
      status: "unhealthy",
      detail:
        "Error making API request. URL: PUT https://openbao.internal:8200/v1/transit/encrypt/k8s-kek Code: 400. Errors: * refusing to use soft-deleted key",
    };
  if (model.auth.tokenTtlSeconds <= 0) return { status: "unhealthy", detail: "auth login failed: jwt expired: exp claim is not in the future" };
  if (model.auth.certificateTtlSeconds <= 0)
    return { status: "error", detail: "tls: failed to verify certificate: x509: certificate has expired or is not yet valid" };
  if (Math.abs(node.clockSkewMs) > 60_000) return { status: "unhealthy", detail: "auth login failed: jwt issued in future: iat claim is in the future" };
  return { status: "healthy" };
}
