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

/** Sparkline points the summary view keeps per series: 15 minutes in 21 buckets of about 45 s. */
export const POINTS_SHOWN = 21;

/**
 * A sparkline's history in at most POINTS_SHOWN buckets, each the worst value it holds (the highest, or the lowest
 * for the TTLs) at the time of its last point: a spike is never thinned away. Null only where a bucket has no value.
 */
export function thinPoints(points: MetricSeries["points"], worst: "highest" | "lowest"): MetricSeries["points"] {
  if (points.length <= POINTS_SHOWN) return points;
  const size = Math.ceil(points.length / POINTS_SHOWN);
  const out: MetricSeries["points"] = [];
  // Buckets end at the newest point, so the value now is always the last one's bucket.
  for (let end = points.length; end > 0; end -= size) {
    const bucket = points.slice(Math.max(0, end - size), end);
    const values = bucket.map((p) => p.v).filter((v): v is number => v !== null);
    const v = values.length === 0 ? null : worst === "highest" ? Math.max(...values) : Math.min(...values);
    out.push({ t: bucket[bucket.length - 1].t, v });
  }
  return out.reverse();
}

/** Each metric with only the series the panel shows (the others are added to `truncated`), their histories thinned. */
export function metricsInView(metrics: KmsMetrics | undefined): KmsMetrics | undefined {
  if (!metrics) return undefined;
  const out = {} as KmsMetrics["metrics"];
  for (const [name, metric] of Object.entries(metrics.metrics) as [KmsMetricName, KmsMetrics["metrics"][KmsMetricName]][]) {
    const worst = worstOf(name);
    const hidden = metric.series.length - SERIES_SHOWN;
    const shown = hidden > 0 ? orderSeries(metric.series, worst).slice(0, SERIES_SHOWN) : metric.series;
    out[name] = {
      ...metric,
      series: shown.map((s) => ({ ...s, points: thinPoints(s.points, worst) })),
      ...(hidden > 0 ? { truncated: (metric.truncated ?? 0) + hidden } : {}),
    };
  }
  return { ...metrics, metrics: out };
}
