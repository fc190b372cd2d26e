import type { KmsMetrics } from "@/lib/sources/kms-metric-types";
import { fromMetricValue } from "@/lib/sources/metric-value";
import { clipLine } from "@/lib/model/clip-text";
import { createSignal, type Signal } from "./signal-model";
import { clipLabel, evidenceOf, groupBy, nodeOf, pluginSubject, seriesOf } from "./metric-series";

// The KMS plugin's own failure counters over 15 minutes (query pluginFailures), one signal per plugin. Each counter
// is quoted as the plugin's /metrics names it, with its bounded reason ("aad_mismatch", "key_id_unknown"), so the
// diagnosis classifies it like any other text (catalog/error-classes.yaml).

/** Unclean exits in 15 minutes that make a crash loop rather than one crash. */
export const RESTARTS_CRITICAL = 3;
const DETAIL_LIMIT = 300;

interface Counter {
  /** What one count means, for the sentence (given the labels' values). */
  what: (label: string | undefined, other?: string) => string;
  label?: "reason" | "method" | "status";
  /** A second label quoted before `label`. */
  by?: "operation";
  /** Critical from one count, or from this many. */
  criticalFrom: number;
}

const COUNTERS: Record<string, Counter> = {
  // A refused decrypt is a Secret that cannot be read.
  openbao_kms_aad_validation_errors_total: { label: "reason", criticalFrom: 1, what: (r) => `decrypts refused by AAD validation (${r})` },
  openbao_kms_decrypt_key_id_errors_total: { label: "reason", criticalFrom: 1, what: (r) => `decrypts refused for their key_id (${r})` },
  // Counted when the plugin starts and removes a dead socket left by a process that did not stop cleanly.
  openbao_kms_socket_restarts_total: { criticalFrom: RESTARTS_CRITICAL, what: () => "stale sockets reclaimed at start (unclean exits)" },
  openbao_kms_panic_recoveries_total: { label: "method", criticalFrom: Infinity, what: (m) => `panics recovered in ${m}` },
  openbao_kms_auth_login_total: { label: "status", criticalFrom: Infinity, what: (s) => `OpenBao logins failed (${s})` },
  openbao_kms_auth_renewal_total: { label: "status", criticalFrom: Infinity, what: (s) => `token renewals failed (${s})` },
  openbao_kms_openbao_requests_total: {
    by: "operation",
    label: "status",
    criticalFrom: Infinity,
    what: (s, op) => `OpenBao ${op ?? "requests"} failed (${s})`,
  },
};

export function pluginFailureSignals(metrics: KmsMetrics): Signal[] {
  return groupBy(seriesOf(metrics, "pluginFailures"), pluginSubject).map(([subject, series]) => {
    const counted = series.flatMap((s) => {
      const counter = COUNTERS[s.labels.metric ?? ""];
      const n = Math.round(fromMetricValue(s.value));
      if (!counter || !Number.isFinite(n) || n <= 0) return [];
      const label = counter.label ? clipLabel(s.labels[counter.label]) : undefined;
      const by = counter.by ? clipLabel(s.labels[counter.by]) : undefined;
      // As the plugin's /metrics shows the counter, with how much it grew: what the error classes read.
      const selector = [counter.by ? `${counter.by}="${by ?? ""}"` : "", counter.label ? `${counter.label}="${label ?? ""}"` : ""].filter(Boolean).join(",");
      return [
        {
          s,
          counter,
          n,
          said: `${counter.what(label ?? "unknown", by)}: ${n}`,
          quoted: `${s.labels.metric}${counter.label ? `{${selector}}` : ""} +${n} in 15m`,
        },
      ];
    });
    // What makes the signal critical comes first, then the largest: a refusal counted once in this scenario is not
    // clipped off the sentence behind an hour's failed logins.
    const critical = (c: (typeof counted)[number]) => (c.n >= c.counter.criticalFrom ? 1 : 0);
    counted.sort((a, b) => critical(b) - critical(a) || b.n - a.n);
    const evidence = { series: series.map(evidenceOf), restartsCritical: RESTARTS_CRITICAL };
    if (counted.length === 0)
      return createSignal("kms.plugin.errors", subject, "ok", "the plugin counted no refused decrypts, unclean exits or failed logins in 15m", evidence);
    const state = counted.some((c) => c.n >= c.counter.criticalFrom) ? "critical" : "warning";
    const sentence = counted.map((c) => c.said).join("; ");
    return createSignal("kms.plugin.errors", subject, state, clipLine(`The plugin counted in 15m: ${sentence}`, DETAIL_LIMIT), evidence, {
      kind: "plugin-failures-counted",
      fields: { node: nodeOf(counted[0].s), counters: counted.map((c) => c.quoted).join("; "), total: counted.reduce((n, c) => n + c.n, 0) },
    });
  });
}
