import type { KmsMetricName, KmsMetrics, MetricSeries } from "@/lib/sources/kms-metric-types";
import { fromMetricValue, type MetricValue } from "@/lib/sources/metric-value";

// Which of a KMS metric's series matter most now (the health page's panel lists them first): the highest values,
// or the lowest for the TTLs. Pure, so the summary view keeps exactly the series the panel would show.

/** Series the panel shows per metric (the summary view keeps these and counts the rest). */
export const SERIES_SHOWN = 6;

const LOWEST_FIRST = new Set<KmsMetricName>(["tokenTtl", "certificateTtl"]);
export const worstOf = (name: KmsMetricName): "highest" | "lowest" => (LOWEST_FIRST.has(name) ? "lowest" : "highest");

/** The value now as a number; undefined when there is none (null or NaN). */
export const numeric = (v: MetricValue | null): number | undefined => {
  const n = fromMetricValue(v);
  return Number.isNaN(n) ? undefined : n;
};

export function seriesName(labels: Record<string, string>): string {
  return (
    [labels.node ?? labels.instance, labels.provider_name ?? labels.resource ?? (labels.key_id ? `kms-${labels.key_id}` : undefined), labels.method]
      .filter(Boolean)
      .join(" · ") || "cluster"
  );
}

export function orderSeries(series: MetricSeries[], worst: "highest" | "lowest"): MetricSeries[] {
  const key = (s: MetricSeries) => numeric(s.value) ?? (worst === "highest" ? -Infinity : Infinity);
  return [...series].sort((a, b) => (worst === "highest" ? key(b) - key(a) : key(a) - key(b)) || seriesName(a.labels).localeCompare(seriesName(b.labels)));
}

/** Each metric with only the series the panel shows; the others are added to `truncated`. */
export function metricsInView(metrics: KmsMetrics | undefined): KmsMetrics | undefined {
  if (!metrics) return undefined;
  const out = {} as KmsMetrics["metrics"];
  for (const [name, metric] of Object.entries(metrics.metrics) as [KmsMetricName, KmsMetrics["metrics"][KmsMetricName]][]) {
    const hidden = metric.series.length - SERIES_SHOWN;
    out[name] =
      hidden > 0
        ? { ...metric, series: orderSeries(metric.series, worstOf(name)).slice(0, SERIES_SHOWN), truncated: (metric.truncated ?? 0) + hidden }
        : metric;
  }
  return { ...metrics, metrics: out };
}
