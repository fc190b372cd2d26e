import type { KmsMetricName, KmsMetrics } from "@/lib/sources/kms-metric-types";
import { numeric, orderSeries, seriesName, SERIES_SHOWN } from "@/lib/signals/metric-order";
import { KEYID_CHANGES_WARNING, LATENCY_WARNING_SECONDS, TTL_WARNING_SECONDS } from "@/lib/signals/derive-metric-signals";
import { formatMetric, Sparkline } from "./sparkline";
import { ago } from "@/components/ui/time";

// The KMS metrics from the cluster's Prometheus: per metric, the series that matter most now, each
// with a 15-minute sparkline and its current value. A metric whose query failed says why; the others
// still show.

interface Panel {
  name: KmsMetricName;
  title: string;
  /** Which series come first: the worst ones. */
  worst: "highest" | "lowest";
  threshold?: number;
  tone: (v: number) => "ok" | "warning" | "critical";
}

const PANELS: Panel[] = [
  {
    name: "latencyP99",
    title: "KMS call latency, p99",
    worst: "highest",
    threshold: LATENCY_WARNING_SECONDS,
    tone: (v) => (v >= 1 ? "critical" : v >= LATENCY_WARNING_SECONDS ? "warning" : "ok"),
  },
  { name: "errorRate", title: "Failed KMS calls per second", worst: "highest", tone: (v) => (v > 0 ? "critical" : "ok") },
  { name: "requestRate", title: "KMS calls per second", worst: "highest", tone: () => "ok" },
  {
    name: "keyIdChanges",
    title: "key_id switches (kube-apiserver, 15 min)",
    worst: "highest",
    threshold: KEYID_CHANGES_WARNING,
    tone: (v) => (v >= KEYID_CHANGES_WARNING ? "warning" : "ok"),
  },
  {
    name: "pluginKeyIdChanges",
    title: "key_id switches (plugin, 15 min)",
    worst: "highest",
    threshold: KEYID_CHANGES_WARNING,
    tone: (v) => (v >= KEYID_CHANGES_WARNING ? "warning" : "ok"),
  },
  { name: "circuitBreaker", title: "Plugin circuit breaker (1 = open)", worst: "highest", tone: (v) => (v >= 1 ? "critical" : "ok") },
  {
    name: "tokenTtl",
    title: "OpenBao token TTL",
    worst: "lowest",
    threshold: TTL_WARNING_SECONDS,
    tone: (v) => (v <= 120 ? "critical" : v < TTL_WARNING_SECONDS ? "warning" : "ok"),
  },
  { name: "identityWrites", title: "Writes stored as plaintext (identity), 15 min", worst: "highest", tone: (v) => (v > 0 ? "critical" : "ok") },
  {
    name: "certificateTtl",
    title: "Client certificate TTL",
    worst: "lowest",
    threshold: TTL_WARNING_SECONDS,
    tone: (v) => (v === 0 ? "ok" : v <= 120 ? "critical" : v < TTL_WARNING_SECONDS ? "warning" : "ok"),
  },
];

const SHOWN = SERIES_SHOWN;

export function KmsMetricsPanel({ metrics, note, stale, checkedAt }: { metrics?: KmsMetrics; note?: string; stale?: boolean; checkedAt: string }) {
  if (!metrics) {
    return (
      <p className="muted" data-testid="kms-metrics-none">
        KMS metrics: {note ?? "none yet"}.
      </p>
    );
  }
  return (
    <section className="kms-metrics" data-testid="kms-metrics" aria-label="KMS metrics">
      <h3>
        KMS metrics{" "}
        <span className="muted small">
          from {metrics.source}, as of {ago(metrics.at, checkedAt)}
          {stale ? " (Prometheus is down: last known values)" : ""}
        </span>
      </h3>
      {metrics.errors.length > 0 ? (
        <p className="callout small" data-testid="kms-metrics-errors">
          {metrics.errors.length} quer{metrics.errors.length === 1 ? "y" : "ies"} failed:{" "}
          {metrics.errors
            .slice(0, 3)
            .map((e) => `${e.metric} (${e.query}): ${e.message}`)
            .join("; ")}
          {metrics.errors.length > 3 ? "; …" : ""}
        </p>
      ) : null}
      <div className="metric-grid">
        {PANELS.map((panel) => {
          const metric = metrics.metrics[panel.name];
          if (!metric) return null;
          const series = orderSeries(metric.series, panel.worst);
          return (
            <div key={panel.name} className="metric-card" data-metric={panel.name}>
              <h4>{panel.title}</h4>
              {!metric.answered ? (
                <p className="muted small">no answer from Prometheus</p>
              ) : series.length === 0 ? (
                <p className="muted small">no series</p>
              ) : (
                <table className="metric-series">
                  <tbody>
                    {series.slice(0, SHOWN).map((s) => {
                      const now = numeric(s.value);
                      const tone = now === undefined ? "unknown" : panel.tone(now);
                      const name = seriesName(s.labels);
                      return (
                        <tr key={JSON.stringify(s.labels)} data-series={name} data-tone={tone}>
                          <th scope="row" className="small">
                            {name}
                          </th>
                          <td>
                            <Sparkline points={s.points} label={`${panel.title}, ${name}`} unit={metric.unit} threshold={panel.threshold} tone={tone} />
                          </td>
                          <td className={`metric-value tone-${tone}`}>{now === undefined ? "no value" : formatMetric(now, metric.unit)}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              )}
              {series.length > SHOWN || metric.truncated ? (
                <p className="muted small">+{series.length - Math.min(SHOWN, series.length) + (metric.truncated ?? 0)} more series</p>
              ) : null}
            </div>
          );
        })}
      </div>
    </section>
  );
}
