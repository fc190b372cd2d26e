import type { MetricValue } from "@/lib/sources/metric-value";
import type { PrometheusErrorKind } from "@/lib/sources/prometheus/client";

// The KMS metrics as the Prometheus adapter returns them, apart from the code that queries, so pages can
// read them without the query client.

export type MetricUnit = "seconds" | "per-second" | "count" | "state";
/** The KMS metrics read from Prometheus; lib/sources/prometheus/kms-metrics.ts holds a query for each. */
export type KmsMetricName =
  | "latencyP99"
  | "requestRate"
  | "errorRate"
  | "keyIdHashes"
  | "keyIdChanges"
  | "pluginKeyIdChanges"
  | "circuitBreaker"
  | "tokenTtl"
  | "certificateTtl"
  | "identityWrites"
  | "pluginFailures";

export interface MetricSeries {
  /** Only the labels that identify a KMS series: instance, node, key_id, provider_name, method. */
  labels: Record<string, string>;
  /** The value at `at`; null when the series is in the history but has no value now. */
  value: MetricValue | null;
  /** Sparkline history, oldest first; t in ms, v null where the value is NaN or infinite. */
  points: { t: number; v: number | null }[];
}

export interface KmsQueryError {
  metric: KmsMetricName;
  query: "instant" | "range";
  kind: PrometheusErrorKind | "internal";
  status?: number;
  errorType?: string;
  message: string;
}

export interface KmsMetric {
  name: KmsMetricName;
  unit: MetricUnit;
  promql: string;
  /** false when the instant query failed: the series (if any) come from the history alone. */
  answered: boolean;
  series: MetricSeries[];
  /** Series dropped beyond MAX_SERIES_PER_METRIC. */
  truncated?: number;
}

export interface KmsMetrics {
  /** The Prometheus base URL without credentials. */
  source: string;
  /** ISO time the values are for. */
  at: string;
  history: { start: string; end: string; stepSeconds: number };
  metrics: Record<KmsMetricName, KmsMetric>;
  errors: KmsQueryError[];
  /** Wall-clock milliseconds the whole collection took. */
  tookMs: number;
}
