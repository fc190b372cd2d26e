import { createHash } from "node:crypto";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { keyIdHash, probe, type ClusterModel, type NodeState } from "./model";

// Health endpoints, OpenBao responses and metrics of the simulated cluster, in the real formats.

const RESOURCES = ["secrets", "configmaps"];

/** EncryptionConfiguration order: per resource, the write key's provider, then the read keys'. */
function providers(node: NodeState): { name: string; keyID: string }[] {
  return RESOURCES.flatMap((r) => node.plugins.map((p) => ({ name: `${p.keyID}_${r}`, keyID: p.keyID })));
}

function failingProviders(model: ClusterModel, node: NodeState, tick: number): string[] {
  const errors: string[] = [];
  providers(node).forEach((provider, index) => {
    const plugin = node.plugins.find((p) => p.keyID === provider.keyID)!;
    const result = probe(model, node, plugin, tick);
    if (result.status !== "healthy") {
      errors.push(`kms-provider-${index}: kmsv2 Provider ${provider.name} is not healthy, error: got unexpected healthz status: ${result.detail ?? result.status}`);
    }
  });
  return errors;
}

export function renderKmsProviders(model: ClusterModel, node: NodeState, tick: number): { status: number; body: string } {
  const errors = failingProviders(model, node, tick);
  return errors.length ? { status: 500, body: `internal server error: [${errors.join(", ")}]\n` } : { status: 200, body: "ok" };
}

const CHECKS = ["ping", "log", "etcd", "etcd-readiness", "kms-providers", "informer-sync", "poststarthook/start-apiserver-admission-initializer", "poststarthook/generic-apiserver-start-informers", "poststarthook/rbac/bootstrap-roles", "shutdown"];

export function renderReadyz(model: ClusterModel, node: NodeState, tick: number, verbose: boolean, kind: "readyz" | "healthz"): { status: number; body: string } {
  const kmsOk = failingProviders(model, node, tick).length === 0;
  if (!verbose) return kmsOk ? { status: 200, body: "ok" } : { status: 500, body: `[-]kms-providers failed: reason withheld\n${kind} check failed\n` };
  const lines = CHECKS.filter((c) => kind === "readyz" || !["etcd-readiness", "informer-sync", "shutdown"].includes(c)).map((c) =>
    c === "kms-providers" && !kmsOk ? "[-]kms-providers failed: reason withheld" : `[+]${c} ok`,
  );
  return { status: kmsOk ? 200 : 500, body: `${lines.join("\n")}\n${kind} check ${kmsOk ? "passed" : "failed"}\n` };
}

export function renderOpenBaoHealth(model: ClusterModel, now: Date): { status: number; body: unknown } | "unreachable" {
  const state = model.openbao.state;
  if (state === "unreachable") return "unreachable";
  const base = {
    initialized: state !== "uninitialized",
    sealed: state === "sealed" || state === "uninitialized",
    standby: state !== "active",
    performance_standby: undefined,
    replication_performance_mode: state === "active" ? "disabled" : "unknown",
    replication_dr_mode: state === "active" ? "disabled" : "unknown",
    server_time_utc: Math.floor(now.getTime() / 1000),
    version: model.openbao.version,
    ...(state === "active" || state === "standby" ? { cluster_name: "vault-cluster-4f1c2b9e", cluster_id: "b1b0e8f2-6a6e-4d8a-9d0d-6f0f3f7a9c11" } : {}),
  };
  const status = { active: 200, standby: 429, sealed: 503, uninitialized: 501 }[state];
  return { status, body: base };
}

export function renderTransitKey(model: ClusterModel, now: Date): { status: number; body: unknown } {
  const t = model.transit;
  if (!t.exists) return { status: 404, body: { errors: [] } };
  const start = Math.floor(now.getTime() / 1000) - 86400 * 90;
  const keys = Object.fromEntries(Array.from({ length: t.latestVersion }, (_, i) => [String(i + 1), start + i * 86400 * 30]).filter(([v]) => Number(v) >= t.minDecryptionVersion));
  return {
    status: 200,
    body: {
      request_id: "0b5d2f0a-0d5b-4b8f-9a51-3c2f7d0c6e21",
      lease_id: "",
      renewable: false,
      lease_duration: 0,
      data: {
        allow_plaintext_backup: false,
        auto_rotate_period: 0,
        deletion_allowed: t.deletionAllowed,
        derived: false,
        exportable: false,
        imported_key: false,
        keys,
        latest_version: t.latestVersion,
        min_available_version: 0,
        min_decryption_version: t.minDecryptionVersion,
        min_encryption_version: 0,
        name: t.name,
        soft_deleted: t.softDeleted,
        supports_decryption: true,
        supports_derivation: true,
        supports_encryption: true,
        supports_signing: false,
        type: "aes256-gcm96",
      },
      wrap_info: null,
      warnings: null,
      auth: null,
    },
  };
}

/** kube-apiserver /metrics for one instance: the envelope-encryption families. */
export async function renderApiserverMetrics(model: ClusterModel, node: NodeState, now: Date): Promise<string> {
  const registry = new Registry();
  const server = keyIdHash(`apiserver-${node.name}`);
  const seconds = now.getTime() / 1000;
  const hashTotal = new Counter({ name: "apiserver_envelope_encryption_key_id_hash_total", help: "[ALPHA] Number of times a keyID is used split by transformation type, provider, and apiserver identity.", labelNames: ["apiserver_id_hash", "key_id_hash", "provider_name", "transformation_type"], registers: [registry] });
  const statusSeen = new Gauge({ name: "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds", help: "[ALPHA] The last time in seconds when a keyID was returned by the Status RPC call.", labelNames: ["apiserver_id_hash", "key_id_hash", "provider_name"], registers: [registry] });
  const latency = new Histogram({ name: "apiserver_envelope_encryption_kms_operations_latency_seconds", help: "[ALPHA] KMS operation duration with gRPC error code status total.", labelNames: ["grpc_status_code", "method_name", "provider_name"], buckets: Array.from({ length: 20 }, (_, i) => 0.0001 * 2 ** i), registers: [registry] });
  const lastUsed = new Gauge({ name: "apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds", help: "[ALPHA] The last time in seconds when a keyID was used.", labelNames: ["apiserver_id_hash", "key_id_hash", "provider_name", "transformation_type"], registers: [registry] });
  const dekCache = new Gauge({ name: "apiserver_envelope_encryption_dek_source_cache_size", help: "[ALPHA] Number of records in data encryption key (DEK) source cache. On a restart, this value is an approximation of the number of decrypt RPC calls the server will make to the KMS plugin.", labelNames: ["provider_name"], registers: [registry] });
  const invalid = new Counter({ name: "apiserver_envelope_encryption_invalid_key_id_from_status_total", help: "[ALPHA] Number of times an invalid keyID is returned by the Status RPC call split by error.", labelNames: ["error", "provider_name"], registers: [registry] });
  const transformations = new Counter({ name: "apiserver_storage_transformation_operations_total", help: "[ALPHA] Total number of transformations. Successful transformation will have a status 'OK' and a varied status string when the transformation fails.", labelNames: ["resource", "status", "transformation_type", "transformer_prefix"], registers: [registry] });
  for (const plugin of node.plugins) {
    const healthy = probe(model, node, plugin, 0).status === "healthy";
    // A flip-flopping key_id shows as a second hash seen for the same provider.
    const hashes = [keyIdHash(`${plugin.kekID}-v${model.transit.latestVersion}`), ...(model.keyIdFlips > 0 ? [keyIdHash(`${plugin.kekID}-v${model.transit.latestVersion - 1}`)] : [])];
    for (const resource of RESOURCES) {
      const provider = `${plugin.keyID}_${resource}`;
      hashes.forEach((hash, i) => {
        hashTotal.inc({ apiserver_id_hash: server, key_id_hash: hash, provider_name: provider, transformation_type: "from_storage" }, i === 0 ? 18422 : model.keyIdFlips);
        statusSeen.set({ apiserver_id_hash: server, key_id_hash: hash, provider_name: provider }, seconds - (i === 0 ? 20 : 5));
        lastUsed.set({ apiserver_id_hash: server, key_id_hash: hash, provider_name: provider, transformation_type: "from_storage" }, seconds - 3);
      });
      dekCache.set({ provider_name: provider }, 1);
      if (!hashes.length) invalid.inc({ error: "empty", provider_name: provider });
      const code = healthy ? "OK" : "Unavailable";
      for (const method of ["Status", "Encrypt", "Decrypt"]) {
        const labels = { grpc_status_code: code, method_name: `/v2.KeyManagementService/${method}`, provider_name: provider };
        for (let i = 0; i < 20; i++) latency.observe(labels, 0.0006 * model.decrypt.latencyFactor);
      }
      if (model.decrypt.deadlineExceeded > 0) {
        const labels = { grpc_status_code: "DeadlineExceeded", method_name: "/v2.KeyManagementService/Decrypt", provider_name: provider };
        for (let i = 0; i < model.decrypt.deadlineExceeded; i++) latency.observe(labels, 3);
      }
      transformations.inc({ resource, status: "OK", transformation_type: "from_storage", transformer_prefix: `k8s:enc:kms:v2:${provider}:` }, 18422);
    }
  }
  if (model.identityFallback) transformations.inc({ resource: "secrets", status: "OK", transformation_type: "to_storage", transformer_prefix: "identity" }, 7);
  return registry.metrics();
}

/** The KMS plugin's own /metrics (dc-tec bao-kms-provider families) for one plugin on one node. */
export async function renderPluginMetrics(model: ClusterModel, node: NodeState, keyID: string): Promise<string | undefined> {
  const plugin = node.plugins.find((p) => p.keyID === keyID);
  if (!plugin) return undefined;
  const registry = new Registry();
  const healthy = probe(model, node, plugin, 0).status === "healthy";
  const g = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const c = (name: string, help: string, labelNames: string[] = []) => new Counter({ name, help, labelNames, registers: [registry] });
  c("openbao_kms_grpc_requests_total", "Total gRPC requests by method and status.", ["method", "status"]).inc({ method: "Decrypt", status: healthy ? "ok" : "error" }, 5304);
  c("openbao_kms_openbao_requests_total", "Total requests to OpenBao by operation and status.", ["operation", "status"]).inc({ operation: "decrypt", status: healthy ? "ok" : "error" }, 5304);
  c("openbao_kms_auth_login_total", "Total OpenBao login attempts by status.", ["status"]).inc({ status: model.auth.loginFailures > 0 ? "error" : "ok" }, Math.max(1, model.auth.loginFailures));
  g("openbao_kms_token_ttl_seconds", "Remaining TTL of the current OpenBao token in seconds.").set(Math.max(0, model.auth.tokenTtlSeconds));
  g("openbao_kms_certificate_ttl_seconds", "Remaining validity of the client certificate in seconds.").set(model.auth.certificateTtlSeconds);
  g("openbao_kms_circuit_breaker_state", "Circuit breaker state: 0 closed, 1 half-open, 2 open.").set(healthy ? 0 : 2);
  g("openbao_kms_key_version", "Latest Transit key version observed.").set(model.transit.latestVersion);
  // The plugin labels its key_id hash in base64url, not kube-apiserver's sha256:<hex>.
  const statusHash = createHash("sha256").update(`${plugin.kekID}-v${model.transit.latestVersion - (model.keyIdFlips % 2)}`).digest("base64url");
  g("openbao_kms_status_key_id_hash", "Hash of the key_id returned by Status.", ["hash"]).set({ hash: statusHash }, 1);
  c("openbao_kms_decrypt_key_id_errors_total", "Decrypt requests rejected for their key_id.", ["reason"]).inc({ reason: "unknown_key_id" }, model.decrypt.unknownKeyIdErrors);
  c("openbao_kms_aad_validation_errors_total", "Requests rejected by additional authenticated data validation.", ["reason"]).inc({ reason: "mismatch" }, model.decrypt.aadErrors);
  c("openbao_kms_socket_restarts_total", "Times the gRPC socket listener was restarted.").inc(node.socketRestarts);
  return registry.metrics();
}

/** The beacon relay's health as the bridge probes it. */
export function renderBeaconHealth(model: ClusterModel): { status: number; body: string } {
  return model.stack.beaconUp ? { status: 200, body: "ok\n" } : { status: 503, body: "beacon unreachable: all 3 relay nodes down\n" };
}
