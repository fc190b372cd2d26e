import { createHash } from "node:crypto";
import { Counter, Gauge, Registry } from "prom-client";
import { counterScope, LATENCY_BUCKETS, type HistogramState } from "./counters";
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
      errors.push(
        `kms-provider-${index}: kmsv2 Provider ${provider.name} is not healthy, error: got unexpected healthz status: ${result.detail ?? result.status}`,
      );
    }
  });
  return errors;
}

export function renderKmsProviders(model: ClusterModel, node: NodeState, tick: number): { status: number; body: string } {
  const errors = failingProviders(model, node, tick);
  return errors.length ? { status: 500, body: `internal server error: [${errors.join(", ")}]\n` } : { status: 200, body: "ok" };
}

const CHECKS = [
  "ping",
  "log",
  "etcd",
  "etcd-readiness",
  "kms-providers",
  "informer-sync",
  "poststarthook/start-apiserver-admission-initializer",
  "poststarthook/generic-apiserver-start-informers",
  "poststarthook/rbac/bootstrap-roles",
  "shutdown",
];

export function renderReadyz(
  model: ClusterModel,
  node: NodeState,
  tick: number,
  verbose: boolean,
  kind: "readyz" | "healthz",
): { status: number; body: string } {
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
  const keys = Object.fromEntries(
    Array.from({ length: t.latestVersion }, (_, i) => [String(i + 1), start + i * 86400 * 30]).filter(([v]) => Number(v) >= t.minDecryptionVersion),
  );
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

// Calls per second per provider as kube-apiserver makes them: Status polls, DEK-cache-miss decrypts, writes.
const STATUS_PER_SECOND = 1 / 20;
const STATUS_PER_SECOND_UNHEALTHY = 1 / 10;
const ENCRYPT_PER_SECOND = 0.05;
const DECRYPT_PER_SECOND = 0.5;
const BASE_LATENCY_SECONDS = 0.0006;
/** A flip-flopping key_id switches this often. */
const FLIP_PERIOD_SECONDS = 60;
const LATENCY_HELP = "[ALPHA] KMS operation duration with gRPC error code status total.";

/** Share of one plugin's calls that fail now: all while its probe fails, half while it crash-loops. */
function failingShare(model: ClusterModel, node: NodeState, plugin: NodeState["plugins"][number]): number {
  if (plugin.flapping) return 0.5;
  return probe(model, node, plugin, 1).status === "healthy" ? 0 : 1;
}

/** The key_id Status returns now (before hashing); a flip-flopping one goes back to the previous key at once. */
function currentKeyId(model: ClusterModel, memo: Map<string, number>, kekID: string, seconds: number): string {
  const latest = `${kekID}-v${model.transit.latestVersion}`;
  if (model.keyIdFlips <= 0) {
    memo.delete("flipsSince");
    return latest;
  }
  if (!memo.has("flipsSince")) memo.set("flipsSince", seconds);
  const phase = Math.floor((seconds - memo.get("flipsSince")!) / FLIP_PERIOD_SECONDS) % 2;
  return phase === 0 ? `${kekID}-v${model.transit.latestVersion - 1}` : latest;
}

const format = (v: number) => String(Number(v.toPrecision(12)));

/** kube-apiserver /metrics for one instance: the envelope-encryption families, counters growing with the clock. */
export async function renderApiserverMetrics(model: ClusterModel, node: NodeState, now: Date): Promise<string> {
  const registry = new Registry();
  const server = keyIdHash(`apiserver-${node.name}`);
  const seconds = now.getTime() / 1000;
  const scope = counterScope(model, `apiserver/${node.name}`, seconds);
  const hashTotal = new Counter({
    name: "apiserver_envelope_encryption_key_id_hash_total",
    help: "[ALPHA] Number of times a keyID is used split by transformation type, provider, and apiserver identity.",
    labelNames: ["apiserver_id_hash", "key_id_hash", "provider_name", "transformation_type"],
    registers: [registry],
  });
  const statusSeen = new Gauge({
    name: "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds",
    help: "[ALPHA] The last time in seconds when a keyID was returned by the Status RPC call.",
    labelNames: ["apiserver_id_hash", "key_id_hash", "provider_name"],
    registers: [registry],
  });
  const lastUsed = new Gauge({
    name: "apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds",
    help: "[ALPHA] The last time in seconds when a keyID was used.",
    labelNames: ["apiserver_id_hash", "key_id_hash", "provider_name", "transformation_type"],
    registers: [registry],
  });
  const dekCache = new Gauge({
    name: "apiserver_envelope_encryption_dek_source_cache_size",
    help: "[ALPHA] Number of records in data encryption key (DEK) source cache. On a restart, this value is an approximation of the number of decrypt RPC calls the server will make to the KMS plugin.",
    labelNames: ["provider_name"],
    registers: [registry],
  });
  const transformations = new Counter({
    name: "apiserver_storage_transformation_operations_total",
    help: "[ALPHA] Total number of transformations. Successful transformation will have a status 'OK' and a varied status string when the transformation fails.",
    labelNames: ["resource", "status", "transformation_type", "transformer_prefix"],
    registers: [registry],
  });
  const latency = model.decrypt.latencyFactor * BASE_LATENCY_SECONDS;
  for (const plugin of node.plugins) {
    const failing = failingShare(model, node, plugin);
    const currentHash = keyIdHash(currentKeyId(model, scope.memo, plugin.kekID, seconds));
    for (const resource of RESOURCES) {
      const provider = `${plugin.keyID}_${resource}`;
      // Status remembers every hash it ever returned, with when it last did, as kube-apiserver's gauge does.
      scope.memo.set(`seen\u0000${provider}\u0000${currentHash}`, seconds);
      for (const [key, at] of scope.memo) {
        const [kind, p, hash] = key.split("\u0000");
        if (kind === "seen" && p === provider) statusSeen.set({ apiserver_id_hash: server, key_id_hash: hash, provider_name: provider }, Math.floor(at));
      }
      const decrypts = DECRYPT_PER_SECOND * (1 - failing);
      for (const [key, at] of scope.memo) {
        const [kind, p, hash] = key.split("\u0000");
        if (kind !== "seen" || p !== provider) continue;
        const used = scope.grow(`hash\u0000${provider}\u0000${hash}`, hash === currentHash ? decrypts : 0, hash === currentHash ? 18422 : undefined);
        if (used === undefined) continue;
        hashTotal.inc({ apiserver_id_hash: server, key_id_hash: hash, provider_name: provider, transformation_type: "from_storage" }, used);
        lastUsed.set({ apiserver_id_hash: server, key_id_hash: hash, provider_name: provider, transformation_type: "from_storage" }, Math.floor(at));
      }
      dekCache.set({ provider_name: provider }, 1);
      const code = "Unavailable";
      const rates: [string, number][] = [
        ["Status", failing > 0 ? STATUS_PER_SECOND_UNHEALTHY : STATUS_PER_SECOND],
        ["Encrypt", ENCRYPT_PER_SECOND],
        ["Decrypt", DECRYPT_PER_SECOND],
      ];
      for (const [method, rate] of rates) {
        scope.observe(series("OK", method, provider), rate * (1 - failing), latency);
        scope.observe(series(code, method, provider), rate * failing, latency);
      }
      // Decrypts the plugin refuses (unknown key_id, AAD mismatch) and decrypts that time out.
      scope.observe(series("Internal", "Decrypt", provider), (model.decrypt.unknownKeyIdErrors + model.decrypt.aadErrors) / 600, latency);
      scope.observe(series("DeadlineExceeded", "Decrypt", provider), model.decrypt.deadlineExceeded / 120, 3);
      const ok = scope.grow(`transform\u0000${provider}`, decrypts, 18422)!;
      transformations.inc({ resource, status: "OK", transformation_type: "from_storage", transformer_prefix: `k8s:enc:kms:v2:${provider}:` }, ok);
    }
  }
  const plaintext = scope.grow("identity", model.identityFallback ? ENCRYPT_PER_SECOND : 0);
  if (plaintext !== undefined)
    transformations.inc({ resource: "secrets", status: "OK", transformation_type: "to_storage", transformer_prefix: "identity" }, plaintext);
  return (await registry.metrics()) + renderLatencyHistogram(scope.histograms());
}

/** The text format's optional timestamp (ms) on every sample line: a Prometheus honouring it stores the sample then. */
export function stampSamples(text: string, at: Date): string {
  return text.replace(/^([^#\n].*)$/gm, `$1 ${at.getTime()}`);
}

const series = (code: string, method: string, provider: string) => `${code}\u0000/v2.KeyManagementService/${method}\u0000${provider}`;

/** The latency histogram by hand: prom-client has no way to add many observations at once. */
function renderLatencyHistogram(histograms: [string, HistogramState][]): string {
  const name = "apiserver_envelope_encryption_kms_operations_latency_seconds";
  if (histograms.length === 0) return "";
  const lines = [`# HELP ${name} ${LATENCY_HELP}`, `# TYPE ${name} histogram`];
  for (const [key, h] of histograms) {
    const [code, method, provider] = key.split("\u0000");
    const labels = `grpc_status_code="${code}",method_name="${method}",provider_name="${provider}"`;
    LATENCY_BUCKETS.forEach((le, i) => lines.push(`${name}_bucket{${labels},le="${le}"} ${format(h.buckets[i])}`));
    lines.push(
      `${name}_bucket{${labels},le="+Inf"} ${format(h.count)}`,
      `${name}_sum{${labels}} ${format(h.sum)}`,
      `${name}_count{${labels}} ${format(h.count)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const BAO_CLASS: Partial<Record<ClusterModel["openbao"]["state"], string>> = { sealed: "sealed", unreachable: "connection_failed", standby: "unavailable" };

/** The KMS plugin's own /metrics (dc-tec bao-kms-provider families) for one plugin on one node. */
export async function renderPluginMetrics(model: ClusterModel, node: NodeState, keyID: string, now: Date = new Date()): Promise<string | undefined> {
  const plugin = node.plugins.find((p) => p.keyID === keyID);
  if (!plugin) return undefined;
  const registry = new Registry();
  const seconds = now.getTime() / 1000;
  const scope = counterScope(model, `plugin/${node.name}/${keyID}`, seconds);
  const failing = failingShare(model, node, plugin);
  const g = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const c = (name: string, help: string, labelNames: string[] = []) => new Counter({ name, help, labelNames, registers: [registry] });
  // One plugin serves both resources' providers.
  const calls = {
    decrypt: 2 * DECRYPT_PER_SECOND,
    encrypt: 2 * ENCRYPT_PER_SECOND,
    status: 2 * (failing > 0 ? STATUS_PER_SECOND_UNHEALTHY : STATUS_PER_SECOND),
  };
  const grpc = c("openbao_kms_grpc_requests_total", "Total KMS v2 gRPC requests by method and bounded status.", ["method", "status"]);
  // The plugin labels a failed OpenBao request with its redacted error class (internal/openbao/errors.go requestStatus).
  const baoClass = BAO_CLASS[model.openbao.state] ?? "unavailable";
  const bao = c("openbao_kms_openbao_requests_total", "Total OpenBao HTTP requests by operation and bounded status.", ["operation", "status"]);
  for (const [method, rate] of Object.entries(calls)) {
    for (const [status, share, base] of [
      ["ok", 1 - failing, 1000],
      ["error", failing, undefined],
    ] as const) {
      const count = scope.grow(`grpc\u0000${method}\u0000${status}`, rate * share, base);
      if (count !== undefined) grpc.inc({ method, status }, count);
      const operation = method === "status" ? "transit_metadata_read" : `transit_${method}`;
      const sent = scope.grow(`bao\u0000${operation}\u0000${status}`, rate * share, base);
      if (sent !== undefined) bao.inc({ operation, status: status === "error" ? baoClass : status }, sent);
    }
  }
  const logins = c("openbao_kms_auth_login_total", "Total OpenBao auth-method login attempts by bounded status.", ["status"]);
  logins.inc({ status: "ok" }, scope.grow("login\u0000ok", model.auth.loginFailures > 0 ? 0 : 1 / 300, 1)!);
  const failedLogins = scope.grow("login\u0000error", model.auth.loginFailures / 300);
  if (failedLogins !== undefined) logins.inc({ status: "error" }, failedLogins);
  g("openbao_kms_token_ttl_seconds", "Remaining in-memory OpenBao token TTL.").set(Math.max(0, model.auth.tokenTtlSeconds));
  g(
    "openbao_kms_certificate_ttl_seconds",
    "Remaining cert-auth client certificate TTL. Zero when certificate auth is not in use or no certificate has been observed.",
  ).set(model.auth.certificateTtlSeconds);
  g("openbao_kms_circuit_breaker_state", "Status probe circuit breaker state: 0 closed, 1 open.").set(failing > 0 ? 1 : 0);
  g("openbao_kms_key_version", "Current active OpenBao Transit key version.").set(model.transit.latestVersion);
  // The plugin labels its key_id hash in base64url, not kube-apiserver's sha256:<hex>.
  const keyId = currentKeyId(model, scope.memo, plugin.kekID, seconds);
  g("openbao_kms_status_key_id_hash", "Current active Kubernetes key ID hash.", ["hash"]).set(
    { hash: createHash("sha256").update(keyId).digest("base64url") },
    1,
  );
  c("openbao_kms_decrypt_key_id_errors_total", "Decrypt requests rejected for their key_id.", ["reason"]).inc(
    { reason: "key_id_unknown" },
    scope.grow("unknownKeyId", model.decrypt.unknownKeyIdErrors / 600, 0)!,
  );
  c("openbao_kms_aad_validation_errors_total", "Requests rejected by additional authenticated data validation.", ["reason"]).inc(
    { reason: model.decrypt.aadReason },
    scope.grow("aad", model.decrypt.aadErrors / 600, 0)!,
  );
  // A crash-looping plugin leaves a dead socket behind about every 30 seconds.
  c("openbao_kms_socket_restarts_total", "Total verified-dead Unix sockets safely removed before bind.").inc(
    scope.grow("socketRestarts", plugin.flapping ? 1 / 30 : 0, 0)!,
  );
  return registry.metrics();
}

/** The beacon relay's health as the bridge probes it. */
export function renderBeaconHealth(model: ClusterModel): { status: number; body: string } {
  return model.stack.beaconUp ? { status: 200, body: "ok\n" } : { status: 503, body: "beacon unreachable: all 3 relay nodes down\n" };
}
