import type { PostableAlert } from "./alertmanager";

// The alerting rules the KMS plugin ships (dc-tec/openbao-kubernetes-kms deploy/prometheus/rules/openbao-kms.rules.yaml
// at 1f20f10e, the newest stored version), as Prometheus hands their alerts to Alertmanager: the labels the rule's
// aggregation keeps (`by`), the rule's own labels, and its annotations with $labels filled in. Annotations are the
// rule file's words; the expressions are not repeated here (catalog/alerts.yaml says what each one reads).

export const PLUGIN_RULES_FILE = "dc-tec/openbao-kubernetes-kms deploy/prometheus/rules/openbao-kms.rules.yaml@1f20f10e";

export interface PluginRule {
  alert: string;
  severity: "critical" | "warning";
  /** The labels the rule's aggregation keeps (besides job), filled from the series. */
  by: string[];
  summary: string;
  /** With `{{ $labels.x }}` as the rule writes it. */
  description: string;
}

export const PLUGIN_RULES: PluginRule[] = [
  {
    alert: "OpenBaoKMSStatusCacheStale",
    severity: "critical",
    by: ["instance"],
    summary: "OpenBao KMS status cache is stale",
    description: "The provider status cache on {{ $labels.instance }} has exceeded the expected staleness window.",
  },
  {
    alert: "OpenBaoKMSCircuitBreakerOpen",
    severity: "critical",
    by: ["instance"],
    summary: "OpenBao KMS status probe circuit breaker is open",
    description: "The provider is suppressing status probes after repeated failures on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSMetadataProbeFailing",
    severity: "warning",
    by: ["instance", "status"],
    summary: "OpenBao KMS metadata probes are failing",
    description: "Transit metadata probes are returning status {{ $labels.status }} on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSOpenBaoErrorRateHigh",
    severity: "warning",
    by: ["instance"],
    summary: "OpenBao KMS OpenBao request error rate is high",
    description: "More than 5% of OpenBao client requests are failing on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSAuthFailures",
    severity: "critical",
    by: ["instance", "status"],
    summary: "OpenBao KMS authentication failures",
    description: "OpenBao auth lifecycle is reporting status {{ $labels.status }} on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSTokenTTLShort",
    severity: "warning",
    by: ["instance"],
    summary: "OpenBao KMS token TTL is low",
    description: "The in-memory OpenBao token TTL on {{ $labels.instance }} is below five minutes.",
  },
  {
    alert: "OpenBaoKMSKeyIDHashDiverged",
    severity: "critical",
    // count by (job): the alert carries the job only.
    by: [],
    summary: "OpenBao KMS active key ID hash differs across nodes",
    description: "Control-plane nodes for {{ $labels.job }} are reporting more than one active key ID hash.",
  },
  {
    alert: "OpenBaoKMSRotationPendingStuck",
    severity: "warning",
    by: ["instance"],
    summary: "OpenBao KMS rotation is stuck pending",
    description: "A pending Transit version has not promoted on {{ $labels.instance }} for at least 30 minutes.",
  },
  {
    alert: "OpenBaoKMSAADValidationErrors",
    severity: "warning",
    by: ["instance", "reason"],
    summary: "OpenBao KMS AAD validation errors",
    description: "Decrypt requests are failing AAD validation with reason {{ $labels.reason }} on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSUnknownKeyIDErrors",
    severity: "warning",
    by: ["instance"],
    summary: "OpenBao KMS unknown key ID errors",
    description: "Decrypt requests are referencing unknown key IDs on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSGRPCLatencyHigh",
    severity: "warning",
    by: ["instance", "method"],
    summary: "OpenBao KMS gRPC latency is high",
    description:
      "p99 {{ $labels.method }} latency is above the starter 100ms threshold on {{ $labels.instance }}; tune this threshold to local OpenBao and control-plane behavior before paging.",
  },
  {
    alert: "OpenBaoKMSConcurrencyRejected",
    severity: "warning",
    by: ["instance", "method"],
    summary: "OpenBao KMS rejected requests at a concurrency limit",
    description: "The provider rejected {{ $labels.method }} requests at its configured concurrency limit on {{ $labels.instance }}.",
  },
  {
    alert: "OpenBaoKMSStaleSocketRemoved",
    severity: "warning",
    by: ["instance"],
    summary: "OpenBao KMS removed a stale Unix socket",
    description: "The provider removed a verified-dead socket before bind on {{ $labels.instance }}.",
  },
];

/**
 * One alert of `rule` as Prometheus sends it: alertname, the kept series labels, the rule's labels and the
 * external `cluster` label, annotations rendered with those labels. Firing ones end in an hour, as Prometheus sets endsAt.
 */
export function pluginAlert(
  rule: PluginRule,
  series: Record<string, string>,
  opts: { cluster: string; startsAt: string; endsAt?: string; job?: string },
): PostableAlert {
  const kept = Object.fromEntries(rule.by.map((name) => [name, series[name] ?? ""]));
  const labels = { alertname: rule.alert, job: opts.job ?? "openbao-kms", ...kept, severity: rule.severity, cluster: opts.cluster };
  const render = (template: string) => template.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_m, name: string) => (labels as Record<string, string>)[name] ?? "");
  return {
    labels,
    annotations: { summary: rule.summary, description: render(rule.description) },
    startsAt: opts.startsAt,
    endsAt: opts.endsAt ?? new Date(Date.now() + 3_600_000).toISOString(),
  };
}
