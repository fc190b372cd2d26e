// Alerts on the KMS metrics a cluster's Prometheus already scrapes (kube-apiserver and the KMS plugins, docs/prometheus.md),
// with Faultline's thresholds (lib/signals/derive-metric-signals.ts) and the subjects Faultline gives the same
// failure, so an alert and Faultline's own signal are one member of one incident.

/** Faultline's node: the `node` label, else `instance` (derive-metric-signals.ts, nodeOf). */
const NODE = "{{ or $labels.node $labels.instance }}";
/** One plugin: <node>/<key_id>, or <node> without a key_id label (pluginSubject). */
export const PLUGIN_SUBJECT = `${NODE}{{ with $labels.key_id }}/{{ . }}{{ end }}`;
/** kube-apiserver's view of one KMS provider: <node>/<provider_name> (providerSubject). */
export const PROVIDER_SUBJECT = `${NODE}/{{ or $labels.provider_name "(no provider)" }}`;

const LATENCY = "apiserver_envelope_encryption_kms_operations_latency_seconds";
const BY = "instance, node, provider_name";

export interface KmsAlert {
  alert: string;
  expr: string;
  for: string;
  severity: "critical" | "warning";
  signal: string;
  subject: string;
  /** The failure modes it names; "signal" names every one that lists the signal. */
  catalog: string[] | "signal";
  /** The catalog page runbook_url opens. */
  page: string;
  runbook: string;
  summary: string;
}

export const KMS_ALERTS: KmsAlert[] = [
  {
    alert: "KMSPluginTokenExpiring",
    expr: "openbao_kms_token_ttl_seconds < 600",
    for: "2m",
    severity: "warning",
    signal: "kms.auth.ttl-low",
    subject: PLUGIN_SUBJECT,
    catalog: ["jwt-expired-apiserver-down"],
    page: "jwt-expired-apiserver-down",
    runbook: "kms-auth-failing",
    summary: `KMS plugin ${PLUGIN_SUBJECT}: its OpenBao token expires in {{ $value | humanizeDuration }}; renewal is failing`,
  },
  {
    alert: "KMSPluginTokenExpiring",
    expr: "openbao_kms_token_ttl_seconds <= 120",
    for: "0s",
    severity: "critical",
    signal: "kms.auth.ttl-low",
    subject: PLUGIN_SUBJECT,
    catalog: ["jwt-expired-apiserver-down"],
    page: "jwt-expired-apiserver-down",
    runbook: "kms-auth-failing",
    summary: `KMS plugin ${PLUGIN_SUBJECT}: its OpenBao token expires in {{ $value | humanizeDuration }} or has expired`,
  },
  {
    alert: "KMSPluginCertificateExpiring",
    // 0 means certificate auth is not in use.
    expr: "openbao_kms_certificate_ttl_seconds != 0 < 600",
    for: "2m",
    severity: "warning",
    signal: "kms.auth.ttl-low",
    subject: PLUGIN_SUBJECT,
    catalog: ["auth-certificate-expired"],
    page: "auth-certificate-expired",
    runbook: "kms-auth-failing",
    summary: `KMS plugin ${PLUGIN_SUBJECT}: its client certificate expires in {{ $value | humanizeDuration }}`,
  },
  {
    alert: "KMSPluginCircuitBreakerOpen",
    expr: "openbao_kms_circuit_breaker_state == 1",
    for: "1m",
    severity: "critical",
    signal: "kms.plugin.unhealthy",
    subject: `${PLUGIN_SUBJECT}/circuit-breaker`,
    catalog: ["openbao-unavailable"],
    page: "openbao-unavailable",
    runbook: "kms-plugin-unhealthy",
    summary: `KMS plugin ${PLUGIN_SUBJECT} stopped asking OpenBao: its circuit breaker is open`,
  },
  {
    alert: "KMSDecryptErrors",
    expr: `sum by (${BY}) (rate(${LATENCY}_count{method_name=~".*/Decrypt",grpc_status_code!="OK"}[5m])) / sum by (${BY}) (rate(${LATENCY}_count{method_name=~".*/Decrypt"}[5m])) >= 0.05`,
    for: "5m",
    severity: "critical",
    signal: "kms.decrypt.errors",
    subject: PROVIDER_SUBJECT,
    catalog: "signal",
    page: "unknown-key-id-on-decrypt",
    runbook: "kms-decrypt-errors",
    summary: `{{ $value | humanizePercentage }} of KMS decrypts fail on ${PROVIDER_SUBJECT}: Secrets cannot be read`,
  },
  {
    alert: "KMSLatencyHigh",
    expr: `max by (${BY}) (histogram_quantile(0.99, sum by (le, ${BY}, method_name) (rate(${LATENCY}_bucket[5m])))) >= 1`,
    for: "5m",
    severity: "critical",
    signal: "kms.latency.high",
    subject: PROVIDER_SUBJECT,
    catalog: "signal",
    page: "openbao-audit-backend-pressure",
    runbook: "openbao-sealed-or-unreachable",
    summary: `KMS calls on ${PROVIDER_SUBJECT} take {{ $value | humanizeDuration }} at p99: close to kube-apiserver's 3 s timeout`,
  },
  {
    alert: "KMSIdentityFallbackWrites",
    expr: `sum by (instance, node, resource) (increase(apiserver_storage_transformation_operations_total{transformation_type="to_storage",transformer_prefix="identity"}[15m])) > 0`,
    for: "0s",
    severity: "critical",
    signal: "encryption.identity-fallback",
    subject: `${NODE}/{{ or $labels.resource "(no resource)" }}`,
    catalog: ["identity-fallback-left-enabled"],
    page: "identity-fallback-left-enabled",
    runbook: "encryption-scope-migration",
    summary: `{{ $labels.resource }} written as plaintext on ${NODE}: the identity provider comes before KMS`,
  },
];
