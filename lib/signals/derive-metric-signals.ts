import type { KmsMetricName, KmsMetrics, MetricSeries } from "@/lib/sources/kms-metric-types";
import { fromMetricValue, type MetricValue } from "@/lib/sources/metric-value";
import { clipLine } from "@/lib/model/clip-text";
import { compareNatural } from "@/lib/model/natural-order";
import { createSignal, type ProblemOf, type Signal, type SignalId } from "./signal-model";
import { clipLabel, evidenceOf, groupBy, nodeOf, pluginSubject, providerSubject, seriesOf } from "./metric-series";
import { pluginFailureSignals } from "./derive-plugin-counters";

// Signals from the cluster's Prometheus (lib/sources/prometheus/kms-metrics.ts). Subjects: "<node>/<provider>"
// for kube-apiserver's view of one KMS provider, "<node>/<keyID>" for one plugin, and "prometheus" for
// whether the check could be answered at all (ok once it can, so an "unknown" can also clear).

/** p99 of a KMS call above this is slow: Transit answers in a few milliseconds when healthy. */
export const LATENCY_WARNING_SECONDS = 0.1;
/** A third of kube-apiserver's default 3 s KMS timeout: calls are about to time out. */
export const LATENCY_CRITICAL_SECONDS = 1;
/** Any failed decrypt is a read of a Secret that failed: warning; this share of decrypts failing is critical. */
export const DECRYPT_ERROR_RATIO_CRITICAL = 0.05;
/** key_id switches in 15 minutes: one is a rotation; back and forth is flip-flopping. */
export const KEYID_CHANGES_WARNING = 2;
export const KEYID_CHANGES_CRITICAL = 4;
/** Tokens and certificates renew well before expiry; this little left means renewal is failing. */
export const TTL_WARNING_SECONDS = 10 * 60;
export const TTL_CRITICAL_SECONDS = 2 * 60;
/** Metrics older than this are not vouched for: every verdict on them turns unknown. */
export const STALE_AFTER_SECONDS = 5 * 60;
/** More subjects than this per check are summarised on the "prometheus" subject instead of listed. */
export const MAX_SUBJECTS_PER_CHECK = 200;

const PROMETHEUS = "prometheus";
const DETAIL_LIMIT = 300;
const METHOD_ORDER = ["Status", "Encrypt", "Decrypt"];

type State = Signal["state"];
const RANK: Record<State, number> = { ok: 0, unknown: 1, warning: 2, critical: 3 };

export function deriveMetricSignals(metrics: KmsMetrics, now: Date): Signal[] {
  const signals = [
    ...check(metrics, "kms.latency.high", ["latencyP99"], () => latencySignals(metrics)),
    // An error rate without its request rate (or the reverse) says nothing: both or neither.
    ...check(metrics, "kms.decrypt.errors", ["requestRate", "errorRate"], () => decryptErrorSignals(metrics), false),
    ...check(metrics, "kms.keyid.flapping", ["keyIdChanges", "pluginKeyIdChanges"], () => keyIdSignals(metrics)),
    ...check(metrics, "kms.auth.ttl-low", ["tokenTtl", "certificateTtl"], () => ttlSignals(metrics)),
    ...check(metrics, "kms.plugin.errors", ["pluginFailures"], () => pluginFailureSignals(metrics)),
    ...breakerSignals(metrics),
    ...identitySignals(metrics),
  ];
  const at = Date.parse(metrics.at);
  const age = (now.getTime() - at) / 1000;
  if (Number.isFinite(age) && age <= STALE_AFTER_SECONDS) return signals;
  const why = Number.isFinite(age) ? `metrics are ${formatDuration(age)} old` : `metrics carry no valid time (${clipLine(String(metrics.at), 40)})`;
  const staleFacts = (s: Signal) => ({ ageSeconds: Number.isFinite(age) ? Math.round(age) : null, lastState: s.state, lastKind: s.problem?.kind ?? null });
  return signals.map((s) => ({
    ...s,
    state: "unknown",
    detail: clipLine(`${why}; last read: ${s.detail}`, DETAIL_LIMIT),
    problem: { kind: "metrics-stale", subject: s.subject, fields: staleFacts(s) },
  }));
}

/**
 * The per-subject signals of one check, plus its "prometheus" signal saying whether it could be answered.
 * With independent inputs, what the answered ones say is kept when another fails.
 */
function check(metrics: KmsMetrics, id: SignalId, inputs: KmsMetricName[], derive: () => Signal[], independent = true): Signal[] {
  const failed = inputs.filter((name) => !metrics.metrics?.[name]?.answered);
  if (failed.length > 0) {
    const reasons = failed.map((name) => `${name}: ${(metrics.errors ?? []).find((e) => e.metric === name && e.query === "instant")?.message ?? "no answer"}`);
    const partial = independent && failed.length < inputs.length ? limit(derive()) : { signals: [], dropped: 0 };
    return [
      ...partial.signals,
      createSignal(
        id,
        PROMETHEUS,
        "unknown",
        clipLine(`Prometheus query failed (${reasons.join("; ")})`, DETAIL_LIMIT),
        { source: metrics.source, failed, errors: (metrics.errors ?? []).filter((e) => failed.includes(e.metric)) },
        { kind: "prometheus-query-failed", fields: { metrics: failed.join(", "), error: reasons[0] } },
      ),
    ];
  }
  const { signals, dropped } = limit(derive());
  const series = inputs.reduce((n, name) => n + seriesOf(metrics, name).length, 0);
  if (signals.length === 0) {
    return [
      createSignal(
        id,
        PROMETHEUS,
        "unknown",
        `no ${inputs.join(" or ")} series: is Prometheus scraping kube-apiserver and the KMS plugins?`,
        { source: metrics.source, series },
        { kind: "prometheus-no-series", fields: { metrics: inputs.join(", ") } },
      ),
    ];
  }
  const more = dropped > 0 ? `; ${dropped} more subjects not listed (limit ${MAX_SUBJECTS_PER_CHECK})` : "";
  const worstDropped = dropped > 0 ? "warning" : "ok";
  return [
    ...signals,
    createSignal(
      id,
      PROMETHEUS,
      worstDropped,
      `answered for ${signals.length + dropped} subjects${more}`,
      { source: metrics.source, series, dropped },
      whenNotOk(worstDropped, { kind: "subjects-over-limit", fields: { dropped, limit: MAX_SUBJECTS_PER_CHECK } }),
    ),
  ];
}

function limit(signals: Signal[]): { signals: Signal[]; dropped: number } {
  if (signals.length <= MAX_SUBJECTS_PER_CHECK) return { signals, dropped: 0 };
  // Keep the worst first, so a flood of healthy subjects cannot push a failing one out.
  const kept = [...signals].sort((a, b) => RANK[b.state] - RANK[a.state] || compareNatural(a.subject, b.subject)).slice(0, MAX_SUBJECTS_PER_CHECK);
  return { signals: kept.sort((a, b) => compareNatural(a.subject, b.subject)), dropped: signals.length - kept.length };
}

function latencySignals(metrics: KmsMetrics): Signal[] {
  return groupBy(seriesOf(metrics, "latencyP99"), providerSubject).map(([subject, series]) => {
    const methods = [...series].sort((a, b) => methodRank(a) - methodRank(b));
    const judged = methods.map((s) => ({ s, v: fromMetricValue(s.value), state: latencyState(fromMetricValue(s.value)) }));
    const measured = judged.filter((j) => !Number.isNaN(j.v));
    const evidence = { series: methods.map(evidenceOf), warningSeconds: LATENCY_WARNING_SECONDS, criticalSeconds: LATENCY_CRITICAL_SECONDS };
    if (measured.length === 0)
      return createSignal("kms.latency.high", subject, "unknown", "no KMS calls in the last 5m to measure", evidence, { kind: "latency-no-calls" });
    const worst = worstOf(measured.map((j) => j.state));
    const list = measured.map((j) => `${j.s.labels.method ?? "?"} p99 ${formatSeconds(j.v)}`).join(", ");
    const detail =
      worst === "ok"
        ? `${list} (warning at ${formatSeconds(LATENCY_WARNING_SECONDS)})`
        : worst === "unknown"
          ? `${list}: not a latency`
          : `${list}: ${worst === "critical" ? `at or above ${formatSeconds(LATENCY_CRITICAL_SECONDS)}, close to the API server's 3 s KMS timeout` : `above ${formatSeconds(LATENCY_WARNING_SECONDS)}; Transit answers in milliseconds when healthy`}`;
    const slowest = Math.max(...measured.map((j) => j.v));
    const latency = {
      kind: worst === "unknown" ? "latency-not-a-number" : "latency-high",
      fields: {
        p99Seconds: Number.isFinite(slowest) ? slowest : String(slowest),
        warningSeconds: LATENCY_WARNING_SECONDS,
        criticalSeconds: LATENCY_CRITICAL_SECONDS,
      },
    };
    return createSignal("kms.latency.high", subject, worst, clipLine(detail, DETAIL_LIMIT), evidence, whenNotOk(worst, latency));
  });
}

function latencyState(v: number): State {
  if (Number.isNaN(v) || v < 0) return "unknown";
  // +Inf: the p99 fell in the last bucket, beyond every bound: slower than anything measured.
  if (v >= LATENCY_CRITICAL_SECONDS) return "critical";
  return v >= LATENCY_WARNING_SECONDS ? "warning" : "ok";
}

function decryptErrorSignals(metrics: KmsMetrics): Signal[] {
  const decrypt = (s: MetricSeries) => s.labels.method === "Decrypt";
  const errors = new Map(groupBy(seriesOf(metrics, "errorRate").filter(decrypt), providerSubject));
  return groupBy(seriesOf(metrics, "requestRate").filter(decrypt), providerSubject).map(([subject, [total]]) => {
    const failed = errors.get(subject)?.[0];
    const all = fromMetricValue(total.value);
    const bad = failed ? fromMetricValue(failed.value) : 0;
    const evidence = { requests: evidenceOf(total), ...(failed ? { errors: evidenceOf(failed) } : {}), criticalRatio: DECRYPT_ERROR_RATIO_CRITICAL };
    if (!isRate(all) || !isRate(bad))
      return createSignal(
        "kms.decrypt.errors",
        subject,
        "unknown",
        `decrypt rates are not numbers (${String(total.value)} calls/s, ${String(failed?.value ?? 0)} errors/s)`,
        evidence,
        { kind: "decrypt-rate-not-a-number" },
      );
    if (bad === 0) return createSignal("kms.decrypt.errors", subject, "ok", `no failed decrypts in 5m (${formatRate(all)} calls)`, evidence);
    const ratio = all > 0 ? Math.min(1, bad / all) : 1;
    const state = ratio >= DECRYPT_ERROR_RATIO_CRITICAL ? "critical" : "warning";
    return createSignal(
      "kms.decrypt.errors",
      subject,
      state,
      `Decrypt failing: ${formatRate(bad)} of ${formatRate(all)} (${Math.round(ratio * 100)}%) over 5m; reads of encrypted objects fail`,
      evidence,
      { kind: "decrypt-errors", fields: { errorsPerSecond: bad, callsPerSecond: all, ratio } },
    );
  });
}

const isRate = (v: number) => Number.isFinite(v) && v >= 0;

function keyIdSignals(metrics: KmsMetrics): Signal[] {
  const judge = (subject: string, s: MetricSeries, whose: string): Signal => {
    const changes = fromMetricValue(s.value);
    const evidence = { ...evidenceOf(s), warningChanges: KEYID_CHANGES_WARNING, criticalChanges: KEYID_CHANGES_CRITICAL };
    if (!Number.isFinite(changes) || changes < 0)
      return createSignal("kms.keyid.flapping", subject, "unknown", `${whose} key_id change count is not a number (${String(s.value)})`, evidence, {
        kind: "keyid-changes-not-a-number",
      });
    const n = Math.round(changes);
    if (n < KEYID_CHANGES_WARNING)
      return createSignal(
        "kms.keyid.flapping",
        subject,
        "ok",
        n === 0 ? `${whose} key_id steady for 15m` : `${whose} key_id changed once in 15m (a rotation)`,
        evidence,
      );
    const state = n >= KEYID_CHANGES_CRITICAL ? "critical" : "warning";
    return createSignal(
      "kms.keyid.flapping",
      subject,
      state,
      `${whose} key_id changed ${n} times in 15m: flip-flopping between keys; pin the active key`,
      evidence,
      { kind: "keyid-flapping", fields: { changes: n, reporter: whose === "Status" ? "status" : "plugin" } },
    );
  };
  return [
    ...groupBy(seriesOf(metrics, "keyIdChanges"), providerSubject).map(([subject, [s]]) => judge(subject, s, "Status")),
    ...groupBy(seriesOf(metrics, "pluginKeyIdChanges"), pluginSubject).map(([subject, [s]]) => judge(subject, s, "the plugin's")),
  ];
}

function ttlSignals(metrics: KmsMetrics): Signal[] {
  const certs = new Map(groupBy(seriesOf(metrics, "certificateTtl"), pluginSubject));
  const tokens = new Map(groupBy(seriesOf(metrics, "tokenTtl"), pluginSubject));
  const subjects = [...new Set([...tokens.keys(), ...certs.keys()])].sort(compareNatural);
  return subjects.map((subject) => {
    const token = tokens.get(subject)?.[0];
    const cert = certs.get(subject)?.[0];
    const parts = [token ? judgeTtl("token", token.value, false) : undefined, cert ? judgeTtl("client certificate", cert.value, true) : undefined].filter(
      (p) => p !== undefined,
    );
    const worst = worstOf(parts.map((p) => p.state));
    const shown = worst === "ok" ? parts : parts.filter((p) => p.state !== "ok");
    const evidence = {
      ...(token ? { token: evidenceOf(token) } : {}),
      ...(cert ? { certificate: evidenceOf(cert) } : {}),
      warningSeconds: TTL_WARNING_SECONDS,
      criticalSeconds: TTL_CRITICAL_SECONDS,
    };
    const ttl = (v: MetricValue | undefined) =>
      v === undefined ? null : Number.isFinite(fromMetricValue(v)) ? fromMetricValue(v) : String(fromMetricValue(v));
    const facts = {
      tokenSeconds: ttl(token?.value ?? undefined),
      certificateSeconds: ttl(cert?.value ?? undefined),
      warningSeconds: TTL_WARNING_SECONDS,
      criticalSeconds: TTL_CRITICAL_SECONDS,
    };
    const problem = { kind: worst === "unknown" ? "auth-ttl-not-a-number" : "auth-ttl-low", fields: facts };
    return createSignal("kms.auth.ttl-low", subject, worst, clipLine(shown.map((p) => p.text).join("; "), DETAIL_LIMIT), evidence, whenNotOk(worst, problem));
  });
}

function judgeTtl(what: string, value: MetricValue | null, zeroMeansUnused: boolean): { state: State; text: string } {
  const v = fromMetricValue(value);
  if (Number.isNaN(v)) return { state: "unknown", text: `${what} TTL is not a number` };
  // The plugin reports 0 for the certificate when certificate auth is not in use.
  if (zeroMeansUnused && v === 0) return { state: "ok", text: `${what} auth not in use` };
  if (v <= 0)
    return { state: "critical", text: `${what} expired${v < 0 && Number.isFinite(v) ? ` ${formatDuration(-v)} ago` : ""}: the plugin cannot reach Transit` };
  if (v <= TTL_CRITICAL_SECONDS) return { state: "critical", text: `${what} expires in ${formatDuration(v)}; renewal is failing` };
  if (v < TTL_WARNING_SECONDS) return { state: "warning", text: `${what} expires in ${formatDuration(v)}; renewal should have happened by now` };
  return { state: "ok", text: `${what} valid for ${Number.isFinite(v) ? formatDuration(v) : "ever"}` };
}

/** The plugin's Status-probe circuit breaker, read as plugin health; the subject keeps it apart from the reporter's. */
function breakerSignals(metrics: KmsMetrics): Signal[] {
  if (!metrics.metrics?.circuitBreaker?.answered) return [];
  return limit(
    groupBy(seriesOf(metrics, "circuitBreaker"), pluginSubject).map(([plugin, [s]]) => {
      const subject = `${plugin}/circuit-breaker`;
      const v = fromMetricValue(s.value);
      if (v === 0) return createSignal("kms.plugin.unhealthy", subject, "ok", "circuit breaker closed", evidenceOf(s));
      if (v === 1)
        return createSignal(
          "kms.plugin.unhealthy",
          subject,
          "critical",
          "circuit breaker open: the plugin's Status probes keep failing, so it answers not-ok without asking OpenBao",
          evidenceOf(s),
          { kind: "plugin-circuit-breaker-open" },
        );
      return createSignal(
        "kms.plugin.unhealthy",
        subject,
        "unknown",
        `circuit breaker state ${String(s.value)} is neither 0 (closed) nor 1 (open)`,
        evidenceOf(s),
        { kind: "circuit-breaker-state-unknown", fields: { value: String(s.value) } },
      );
    }),
  ).signals;
}

/**
 * Writes the identity provider stored as plaintext: the identity provider still comes first in the
 * EncryptionConfiguration. No series is the healthy answer (nothing written that way), as long as
 * Prometheus scrapes kube-apiserver at all.
 */
function identitySignals(metrics: KmsMetrics): Signal[] {
  const id = "encryption.identity-fallback";
  const metric = metrics.metrics?.identityWrites;
  if (!metric?.answered) {
    const reason = (metrics.errors ?? []).find((e) => e.metric === "identityWrites" && e.query === "instant")?.message ?? "no answer";
    return [
      createSignal(
        id,
        "cluster",
        "unknown",
        clipLine(`Prometheus query failed (identityWrites: ${reason})`, DETAIL_LIMIT),
        { source: metrics.source },
        { kind: "prometheus-query-failed", fields: { metrics: "identityWrites", error: reason } },
      ),
    ];
  }
  const firing = groupBy(seriesOf(metrics, "identityWrites"), (s) => `${nodeOf(s)}/${clipLabel(s.labels.resource) ?? "(no resource)"}`).filter(
    ([, [s]]) => fromMetricValue(s.value) > 0,
  );
  if (firing.length === 0) {
    const scraped = seriesOf(metrics, "requestRate").length > 0 || seriesOf(metrics, "latencyP99").length > 0;
    return [
      scraped
        ? createSignal(id, "cluster", "ok", "no writes through the identity provider in 15m: new objects are encrypted", { source: metrics.source })
        : createSignal(
            id,
            "cluster",
            "unknown",
            "no kube-apiserver series: is Prometheus scraping kube-apiserver?",
            { source: metrics.source },
            { kind: "prometheus-no-series", fields: { metrics: "requestRate, latencyP99" } },
          ),
    ];
  }
  return limit(
    firing.map(([subject, [s]]) => {
      const n = Math.round(fromMetricValue(s.value));
      return createSignal(
        id,
        subject,
        "critical",
        `${n} write${n === 1 ? "" : "s"} of ${s.labels.resource ?? "objects"} stored as plaintext (identity provider) in 15m: identity comes before the KMS provider; those objects stay unencrypted in etcd until rewritten`,
        evidenceOf(s),
        {
          kind: "identity-writes",
          fields: { node: nodeOf(s), resource: s.labels.resource ?? null, writes: n },
        },
      );
    }),
  ).signals;
}

/** The problem, for a state that is not ok. */
function whenNotOk(state: State, problem: ProblemOf): ProblemOf | undefined {
  return state === "ok" ? undefined : problem;
}

function worstOf(states: State[]): State {
  return states.reduce<State>((worst, s) => (RANK[s] > RANK[worst] ? s : worst), "ok");
}

const methodRank = (s: MetricSeries) => {
  const i = METHOD_ORDER.indexOf(s.labels.method ?? "");
  return i === -1 ? METHOD_ORDER.length : i;
};

export function formatSeconds(v: number): string {
  if (v === Infinity) return "beyond the largest histogram bucket";
  if (v < 1) return `${Math.round(v * 1000)} ms`;
  return `${Number(v.toFixed(1))} s`;
}

function formatRate(v: number): string {
  return `${Number(v.toPrecision(2))}/s`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}
