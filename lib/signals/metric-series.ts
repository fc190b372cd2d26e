import type { KmsMetricName, KmsMetrics, MetricSeries } from "@/lib/sources/kms-metric-types";
import { compareNatural } from "@/lib/model/natural-order";

// The subjects of the KMS metric signals and how their series are grouped: "<node>/<provider>" for kube-apiserver's
// view of a provider, "<node>/<keyID>" for one plugin. Labels come from a cluster's Prometheus: clipped, never trusted.

export const clipLabel = (v: string | undefined) => (v === undefined ? undefined : v.length > 80 ? `${v.slice(0, 80)}…` : v);
export const nodeOf = (s: MetricSeries) => clipLabel(s.labels.node ?? s.labels.instance) ?? "(no instance)";
export const providerSubject = (s: MetricSeries) => `${nodeOf(s)}/${clipLabel(s.labels.provider_name) ?? "(no provider)"}`;
export const pluginSubject = (s: MetricSeries) => (s.labels.key_id ? `${nodeOf(s)}/${clipLabel(s.labels.key_id)}` : nodeOf(s));

/** Series with a value now, grouped by subject, in natural order. */
export function groupBy(series: MetricSeries[], subject: (s: MetricSeries) => string): [string, MetricSeries[]][] {
  const groups = new Map<string, MetricSeries[]>();
  for (const s of series) {
    if (s.value === null) continue;
    const key = subject(s);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.entries()].sort(([a], [b]) => compareNatural(a, b));
}

export const seriesOf = (metrics: KmsMetrics, name: KmsMetricName): MetricSeries[] =>
  (metrics.metrics?.[name]?.series ?? []).filter((s) => s && typeof s.labels === "object" && s.labels !== null);
export const evidenceOf = (s: MetricSeries) => ({ labels: s.labels, value: s.value });
