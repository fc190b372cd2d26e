import { stringify } from "yaml";
import type { Catalog } from "@/lib/catalog/schema";
import { FAULTLINE_ORIGIN } from "@/lib/incidents/alerts/alertmanager";
import { KMS_ALERTS, type KmsAlert } from "./kms-alerts";

// The Prometheus alerting rules Faultline ships (deploy/prometheus/, docs/metrics.md), built from the catalog so
// they cannot name an entry or signal that does not exist. Every alert carries the labels the webhook turns into
// the same (cluster, signal, subject) as Faultline's own member, so it joins that incident (docs/alertmanager.md).

/** Where runbook_url points when Prometheus has no `faultline_url` external label: Faultline's default address. */
export const DEFAULT_FAULTLINE_URL = "http://127.0.0.1:3000";
/** How long a Faultline signal must be critical: Faultline itself opens an incident within a minute (docs/incidents.md). */
export const SIGNAL_ALERT_FOR = "1m";

/** The page an alert links: `faultline_url` from Prometheus' external labels, else the default. */
export const faultlineUrl = (pathname: string) => `{{ with $externalLabels.faultline_url }}{{ . }}{{ else }}${DEFAULT_FAULTLINE_URL}{{ end }}${pathname}`;

/**
 * For a signal several failure modes list, the page runbook_url opens (each of them is named in faultline_catalog_id,
 * so Faultline's ranking among them is left to the evidence); a signal one failure mode lists opens that one.
 */
export const PRIMARY_ENTRY: Record<string, string> = {
  "kms.plugin.unhealthy": "kms-plugin-unavailable",
  "kms.decrypt.errors": "unknown-key-id-on-decrypt",
  "kms.plugin.errors": "unknown-key-id-on-decrypt",
  "kms.latency.high": "openbao-audit-backend-pressure",
  "kms.auth.ttl-low": "jwt-expired-apiserver-down",
  "apiserver.kms-providers.failing": "kms-plugin-unavailable",
  "openbao.sealed": "openbao-sealed",
  "openbao.unreachable": "openbao-unavailable",
  "transit.key.deletion-allowed": "transit-key-deleted",
  "webhook.no-endpoints": "webhook-unreachable-fail",
  "operator.unavailable": "operator-down",
  "beacon.unreachable": "beacon-down",
  "wrapper.restarting": "wrapper-crash-loop",
};

export interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface RuleGroups {
  groups: { name: string; rules: AlertRule[] }[];
}

/** kms.plugin.unhealthy -> FaultlineKmsPluginUnhealthy */
export const alertNameOf = (signal: string) =>
  "Faultline" +
  signal
    .split(/[.-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

/** Failure modes that list each signal, by id. */
export function entriesBySignal(catalog: Pick<Catalog, "entries">): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const e of catalog.entries) {
    if (e.kind !== "failure-mode") continue;
    for (const s of e.signals) by.set(s, [...(by.get(s) ?? []), e.id]);
  }
  for (const ids of by.values()) ids.sort();
  return by;
}

/** One alert per signal some failure mode lists: critical for `forDuration`, labelled to join Faultline's own member. */
function signalRules(catalog: Pick<Catalog, "entries" | "signals">, forDuration: string): AlertRule[] {
  const by = entriesBySignal(catalog);
  return catalog.signals.flatMap((signal) => {
    const ids = by.get(signal.id);
    if (!ids) return []; // no failure mode to name: Faultline still opens its incident, and the gauge shows it
    const primary = PRIMARY_ENTRY[signal.id] ?? ids[0];
    return [
      {
        alert: alertNameOf(signal.id),
        // max by: one alert however many Faultline processes are scraped, and no label but these three.
        expr: `max by (cluster, signal, subject) (faultline_signal_state{signal="${signal.id}",state="critical"}) == 1`,
        for: forDuration,
        labels: {
          severity: "critical",
          faultline_origin: FAULTLINE_ORIGIN,
          faultline_cluster: "{{ $labels.cluster }}",
          faultline_signal: signal.id,
          faultline_subject: "{{ $labels.subject }}",
          faultline_catalog_id: ids.join(","),
        },
        annotations: {
          summary: `${signal.title} ({{ $labels.subject }}, cluster {{ $labels.cluster }})`,
          description: signal.description.replace(/\s+/g, " ").trim(),
          runbook_url: faultlineUrl(`/catalog/${primary}`),
          // The cluster's own page: its matrices and every signal, beside the one that fired.
          dashboard_url: faultlineUrl("/clusters/{{ $labels.cluster }}"),
        },
      },
    ];
  });
}

/** An alert on a cluster's own KMS metrics: the cluster comes from its `cluster` label or the webhook's ?cluster=. */
function kmsRule(a: KmsAlert, by: Map<string, string[]>): AlertRule {
  const ids = a.catalog === "signal" ? (by.get(a.signal) ?? []) : a.catalog;
  return {
    alert: a.alert,
    expr: a.expr,
    for: a.for,
    labels: { severity: a.severity, faultline_signal: a.signal, faultline_subject: a.subject, faultline_catalog_id: ids.join(",") },
    annotations: { summary: a.summary, runbook_url: faultlineUrl(`/catalog/${a.page}`), faultline_runbook_id: a.runbook },
  };
}

export function buildAlertRules(catalog: Pick<Catalog, "entries" | "signals">, opts: { signalFor?: string } = {}): RuleGroups {
  const by = entriesBySignal(catalog);
  return {
    groups: [
      { name: "faultline-signals", rules: signalRules(catalog, opts.signalFor ?? SIGNAL_ALERT_FOR) },
      { name: "faultline-kms-metrics", rules: KMS_ALERTS.map((a) => kmsRule(a, by)) },
    ],
  };
}

/** The same groups as a prometheus-operator PrometheusRule. */
export function toPrometheusRule(groups: RuleGroups): object {
  return {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: "faultline", labels: { "app.kubernetes.io/name": "faultline" } },
    spec: groups,
  };
}

const HEADER = (what: string) =>
  [
    `# ${what}`,
    "# Generated from the catalog by `npm run rules:render` (lib/exporter/alert-rules.ts); a test fails while it is stale.",
    "# runbook_url and dashboard_url use the external label faultline_url (global.external_labels) when set: see docs/metrics.md.",
    "",
  ].join("\n");

/** The two shipped files' text: the plain rule file and the PrometheusRule manifest, same groups. */
export function renderRuleFiles(catalog: Pick<Catalog, "entries" | "signals">, opts: { signalFor?: string } = {}): { rules: string; manifest: string } {
  const groups = buildAlertRules(catalog, opts);
  const dump = (value: object) => stringify(value, { lineWidth: 0 });
  return {
    rules: HEADER("Faultline's Prometheus alerting rules (rule_files).") + dump(groups),
    manifest: HEADER("The same rules for the prometheus-operator (kubectl apply -f).") + dump(toPrometheusRule(groups)),
  };
}
