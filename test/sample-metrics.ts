import {
  HISTORY_SECONDS,
  HISTORY_STEP_SECONDS,
  KMS_METRIC_NAMES,
  KMS_QUERIES,
  type KmsMetricName,
  type KmsMetrics,
  type MetricSeries,
  type MetricValue,
} from "@/lib/sources/prometheus/kms-metrics";

// A healthy KmsMetrics as collectKmsMetrics returns it for a three-node cluster with one plugin per node
// (the demo's shape), for tests of what is derived or drawn from it. Values are those the demo shows.

export const SAMPLE_AT = new Date("2026-08-20T10:15:00Z");
const NODES = ["master-0", "master-1", "master-2"];
const PROVIDERS = ["1_secrets", "1_configmaps"];
const METHODS = ["Status", "Encrypt", "Decrypt"];

function series(labels: Record<string, string>, value: MetricValue | null, at = SAMPLE_AT): MetricSeries {
  const end = at.getTime();
  const points = Array.from({ length: HISTORY_SECONDS / HISTORY_STEP_SECONDS + 1 }, (_, i) => ({
    t: end - (HISTORY_SECONDS - i * HISTORY_STEP_SECONDS) * 1000,
    v: typeof value === "number" ? value : null,
  }));
  return { labels, value, points };
}

const perProvider = (method: string | undefined, value: (m: string) => MetricValue) =>
  NODES.flatMap((node) =>
    PROVIDERS.flatMap((provider) => (method ? [method] : METHODS).map((m) => series({ instance: node, node, provider_name: provider, method: m }, value(m)))),
  );
const perPlugin = (value: MetricValue, labels: Record<string, string> = {}) =>
  NODES.map((node) => series({ instance: `${node}/kms-1`, node, key_id: "1", ...labels }, value));
const RATE: Record<string, number> = { Status: 0.05, Encrypt: 0.05, Decrypt: 0.5 };

export function sampleKmsMetrics(at: Date = SAMPLE_AT): KmsMetrics {
  const values: Record<KmsMetricName, MetricSeries[]> = {
    latencyP99: perProvider(undefined, () => 0.00079),
    requestRate: perProvider(undefined, (m) => RATE[m]),
    errorRate: [],
    keyIdHashes: NODES.flatMap((node) => PROVIDERS.map((p) => series({ instance: node, node, provider_name: p }, 1))),
    keyIdChanges: NODES.flatMap((node) => PROVIDERS.map((p) => series({ instance: node, node, provider_name: p }, 0))),
    pluginKeyIdChanges: perPlugin(0),
    circuitBreaker: perPlugin(0),
    tokenTtl: perPlugin(2764800),
    certificateTtl: perPlugin(7776000),
    identityWrites: [],
    // The demo's plugins export their socket restart counter from the start; the others appear once counted.
    pluginFailures: perPlugin(0, { metric: "openbao_kms_socket_restarts_total" }),
  };
  const start = new Date(at.getTime() - HISTORY_SECONDS * 1000);
  return {
    source: "http://127.0.0.1:9090",
    at: at.toISOString(),
    history: { start: start.toISOString(), end: at.toISOString(), stepSeconds: HISTORY_STEP_SECONDS },
    metrics: Object.fromEntries(
      KMS_METRIC_NAMES.map((name) => [name, { name, unit: KMS_QUERIES[name].unit, promql: KMS_QUERIES[name].promql, answered: true, series: values[name] }]),
    ) as KmsMetrics["metrics"],
    errors: [],
    tookMs: 40,
  };
}

/** Replaces the value now of the series matching `labels` (every given label equal) in one metric. */
export function setSampleValue(metrics: KmsMetrics, name: KmsMetricName, labels: Record<string, string>, value: MetricValue | null): KmsMetrics {
  const matches = (s: MetricSeries) => Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  if (!metrics.metrics[name].series.some(matches)) metrics.metrics[name].series.push(series(labels, value, new Date(metrics.at)));
  for (const s of metrics.metrics[name].series) if (matches(s)) s.value = value;
  return metrics;
}
