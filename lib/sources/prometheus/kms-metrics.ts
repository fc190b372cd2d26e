import { PrometheusQueryError, queryInstant, queryRange, type PromSeries } from "./client";
import type { KmsMetric, KmsMetricName, KmsMetrics, KmsQueryError, MetricSeries, MetricUnit } from "@/lib/sources/kms-metric-types";
import { toMetricValue } from "@/lib/sources/metric-value";

// The KMS metrics Faultline reads from a cluster's Prometheus, as PromQL, and their collection into one
// JSON-serialisable KmsMetrics: the value now per series plus a short history for sparklines. Each
// query fails on its own; its error is kept beside the others' answers.

/** Window of rate() and of the key_id change counts. */
export const RATE_WINDOW = "5m";
export const KEYID_WINDOW = "15m";
/** History kept for sparklines: 15 minutes every 15 seconds (61 points). */
export const HISTORY_SECONDS = 15 * 60;
export const HISTORY_STEP_SECONDS = 15;
export const QUERY_TIMEOUT_MS = 8_000;
/** A hostile or misconfigured Prometheus cannot make one answer arbitrarily large. */
export const MAX_SERIES_PER_METRIC = 500;
export const MAX_POINTS_PER_SERIES = 400;
const MAX_LABEL_VALUE = 200;

const LATENCY = "apiserver_envelope_encryption_kms_operations_latency_seconds";
const STATUS_SEEN = "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds";
const PLUGIN_HASH = "openbao_kms_status_key_id_hash";
const BY_PROVIDER = "instance, node, provider_name";
// method_name is a gRPC path ("/v2.KeyManagementService/Decrypt"); method is its last part.
const method = (q: string) => `label_replace(${q}, "method", "$1", "method_name", ".*/([^/]+)$")`;
/**
 * How often a provider's current key_id changed within the window. Per key_id hash, 1 while it is the
 * hash Status returned most recently, else 0; a switch flips two series (one when the new hash first
 * appears), so switches = ceil(changes / 2).
 */
const apiserverKeyIdChanges = `ceil(sum by (${BY_PROVIDER}) (changes((${STATUS_SEEN} >= bool on(instance, provider_name) group_left max by (instance, provider_name) (${STATUS_SEEN}))[${KEYID_WINDOW}:${HISTORY_STEP_SECONDS}s])) / 2)`;
/** The plugin exports only its current hash (1); an old hash's series goes stale, which `or` turns into 0. */
const pluginKeyIdChanges = `ceil(sum by (instance, node, key_id) (changes(((${PLUGIN_HASH} > bool 0) or (0 * count_over_time(${PLUGIN_HASH}[${KEYID_WINDOW}])))[${KEYID_WINDOW}:${HISTORY_STEP_SECONDS}s])) / 2)`;

/**
 * The plugin's own failure counters (dc-tec/openbao-kubernetes-kms internal/metrics), each with its bounded reason:
 * decrypts refused for their AAD or key_id, stale sockets reclaimed after an unclean exit, recovered panics, failed
 * logins and renewals. `metric` names the counter, so the signal can quote it as the plugin's /metrics shows it.
 */
const PLUGIN_FAILURE_COUNTERS: [selector: string, by: string][] = [
  ["openbao_kms_aad_validation_errors_total", "reason"],
  ["openbao_kms_decrypt_key_id_errors_total", "reason"],
  ["openbao_kms_socket_restarts_total", ""],
  ["openbao_kms_panic_recoveries_total", "method"],
  ['openbao_kms_auth_login_total{status!="ok"}', "status"],
  ['openbao_kms_auth_renewal_total{status!="ok"}', "status"],
  // Its status label is the redacted OpenBao error class (internal/openbao/errors.go requestStatus): sealed, tls_failed, not_found...
  ['openbao_kms_openbao_requests_total{status!="ok"}', "operation, status"],
];
const pluginFailures = `(${PLUGIN_FAILURE_COUNTERS.map(
  ([selector, by]) =>
    `label_replace(sum by (instance, node, key_id${by ? `, ${by}` : ""}) (increase(${selector}[${KEYID_WINDOW}])), "metric", "${selector.replace(/\{.*$/, "")}", "", "")`,
).join(" or ")})`;

export const KMS_QUERIES = {
  /** p99 latency of KMS calls by provider and method (Status, Encrypt, Decrypt), failed calls included. */
  latencyP99: {
    unit: "seconds",
    promql: method(`histogram_quantile(0.99, sum by (le, ${BY_PROVIDER}, method_name) (rate(${LATENCY}_bucket[${RATE_WINDOW}])))`),
  },
  /** KMS calls per second by provider and method. */
  requestRate: { unit: "per-second", promql: method(`sum by (${BY_PROVIDER}, method_name) (rate(${LATENCY}_count[${RATE_WINDOW}]))`) },
  /** Failed KMS calls per second (any gRPC code but OK) by provider and method. */
  errorRate: { unit: "per-second", promql: method(`sum by (${BY_PROVIDER}, method_name) (rate(${LATENCY}_count{grpc_status_code!="OK"}[${RATE_WINDOW}]))`) },
  /** Distinct key_id hashes Status returned per provider within the window. */
  keyIdHashes: { unit: "count", promql: `count by (${BY_PROVIDER}) (${STATUS_SEEN} > (time() - ${HISTORY_SECONDS}))` },
  /** Times the key_id Status returns changed per provider within the window (kube-apiserver's view). */
  keyIdChanges: { unit: "count", promql: apiserverKeyIdChanges },
  /** Times the plugin's own reported key_id hash changed within the window. */
  pluginKeyIdChanges: { unit: "count", promql: pluginKeyIdChanges },
  /** The plugin's Status-probe circuit breaker: 0 closed, 1 open. */
  circuitBreaker: { unit: "state", promql: "openbao_kms_circuit_breaker_state" },
  /** Remaining lifetime of the plugin's OpenBao token. */
  tokenTtl: { unit: "seconds", promql: "openbao_kms_token_ttl_seconds" },
  /** Remaining lifetime of the plugin's client certificate; 0 when certificate auth is not in use. */
  certificateTtl: { unit: "seconds", promql: "openbao_kms_certificate_ttl_seconds" },
  /** Writes the identity provider stored as plaintext within the window, by resource (none: no series). */
  identityWrites: {
    unit: "count",
    promql: `sum by (instance, node, resource) (increase(apiserver_storage_transformation_operations_total{transformation_type="to_storage",transformer_prefix="identity"}[${KEYID_WINDOW}]))`,
  },
  /** Failures the plugin counted within the window, by counter and reason (zero included: the healthy answer). */
  pluginFailures: { unit: "count", promql: pluginFailures },
} as const satisfies Record<KmsMetricName, { unit: MetricUnit; promql: string }>;

export const KMS_METRIC_NAMES = Object.keys(KMS_QUERIES) as KmsMetricName[];

export { fromMetricValue, toMetricValue, type MetricValue } from "@/lib/sources/metric-value";
export type { KmsMetric, KmsMetricName, KmsMetrics, KmsQueryError, MetricSeries, MetricUnit } from "@/lib/sources/kms-metric-types";

const KEPT_LABELS = ["instance", "node", "key_id", "provider_name", "method", "resource", "metric", "reason", "status", "operation"];

/** Runs every KMS query (instant at `now`, range over the last HISTORY_SECONDS) in parallel. */
export async function collectKmsMetrics(baseUrl: string, now: Date, opts: { timeoutMs?: number } = {}): Promise<KmsMetrics> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? QUERY_TIMEOUT_MS;
  const start = new Date(now.getTime() - HISTORY_SECONDS * 1000);
  const errors: KmsQueryError[] = [];
  const fail = (metric: KmsMetricName, query: "instant" | "range", error: unknown) => {
    errors.push(
      error instanceof PrometheusQueryError
        ? {
            metric,
            query,
            kind: error.kind,
            ...(error.status !== undefined ? { status: error.status } : {}),
            ...(error.errorType ? { errorType: error.errorType } : {}),
            message: error.message,
          }
        : { metric, query, kind: "internal", message: error instanceof Error ? error.message : String(error) },
    );
    return undefined;
  };
  const entries = await Promise.all(
    KMS_METRIC_NAMES.map(async (name): Promise<[KmsMetricName, KmsMetric]> => {
      const { promql, unit } = KMS_QUERIES[name];
      const [instant, range] = await Promise.all([
        queryInstant(baseUrl, promql, { time: now, timeoutMs }).catch((e) => fail(name, "instant", e)),
        queryRange(baseUrl, promql, { start, end: now, stepSeconds: HISTORY_STEP_SECONDS, timeoutMs }).catch((e) => fail(name, "range", e)),
      ]);
      let current: { labels: Record<string, string>; value: number }[] = [];
      let answered = instant !== undefined;
      if (instant?.resultType === "vector") current = instant.samples;
      else if (instant?.resultType === "scalar") current = [{ labels: {}, value: instant.sample.value }];
      else if (instant) {
        fail(name, "instant", new PrometheusQueryError("bad-response", `expected a vector, got a ${instant.resultType}`));
        answered = false;
      }
      return [name, mergeSeries(name, unit, promql, answered, current, range?.series ?? [])];
    }),
  );
  errors.sort((a, b) => KMS_METRIC_NAMES.indexOf(a.metric) - KMS_METRIC_NAMES.indexOf(b.metric) || a.query.localeCompare(b.query));
  return {
    source: displayUrl(baseUrl),
    at: now.toISOString(),
    history: { start: start.toISOString(), end: now.toISOString(), stepSeconds: HISTORY_STEP_SECONDS },
    metrics: Object.fromEntries(entries) as Record<KmsMetricName, KmsMetric>,
    errors,
    tookMs: Math.round(performance.now() - started),
  };
}

function mergeSeries(
  name: KmsMetricName,
  unit: MetricUnit,
  promql: string,
  answered: boolean,
  current: { labels: Record<string, string>; value: number }[],
  history: PromSeries[],
): KmsMetric {
  const byKey = new Map<string, MetricSeries>();
  const entry = (raw: Record<string, string>) => {
    const labels = keepLabels(raw);
    const key = JSON.stringify(labels);
    let series = byKey.get(key);
    if (!series) {
      series = { labels, value: null, points: [] };
      byKey.set(key, series);
    }
    return series;
  };
  for (const sample of current) entry(sample.labels).value = toMetricValue(sample.value);
  for (const series of history) {
    const target = entry(series.labels);
    target.points.push(...series.points.slice(-MAX_POINTS_PER_SERIES).map((p) => ({ t: p.t, v: Number.isFinite(p.value) ? p.value : null })));
  }
  const all = [...byKey.values()];
  for (const s of all) {
    s.points.sort((a, b) => a.t - b.t);
    if (s.points.length > MAX_POINTS_PER_SERIES) s.points = s.points.slice(-MAX_POINTS_PER_SERIES);
  }
  const kept = all.slice(0, MAX_SERIES_PER_METRIC);
  return { name, unit, promql, answered, series: kept, ...(all.length > kept.length ? { truncated: all.length - kept.length } : {}) };
}

function keepLabels(raw: Record<string, string>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const name of KEPT_LABELS) {
    const value = raw[name];
    if (typeof value === "string" && value !== "") labels[name] = value.length > MAX_LABEL_VALUE ? `${value.slice(0, MAX_LABEL_VALUE)}…` : value;
  }
  return labels;
}

function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "(invalid URL)";
  }
}
