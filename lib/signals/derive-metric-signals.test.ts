import { describe, expect, it } from "vitest";
import type { KmsMetrics, MetricSeries } from "@/lib/sources/prometheus/kms-metrics";
import { SAMPLE_AT, sampleKmsMetrics, setSampleValue } from "@/test/sample-metrics";
import { deriveMetricSignals, MAX_SUBJECTS_PER_CHECK } from "./derive-metric-signals";
import type { Signal } from "./signal-model";

const NOW = SAMPLE_AT;
const pick = (signals: Signal[], id: string, subject: string) => signals.find((s) => s.id === id && s.subject === subject);
const notOk = (signals: Signal[]) => signals.filter((s) => s.state !== "ok").map((s) => `${s.id} ${s.subject} ${s.state}`);
const decrypt = { node: "master-2", provider_name: "1_secrets", method: "Decrypt" };

describe("deriveMetricSignals on a healthy cluster", () => {
  it("passes every check, per provider and per plugin, and says each check was answered", () => {
    const signals = deriveMetricSignals(sampleKmsMetrics(), NOW);
    expect(notOk(signals)).toEqual([]);
    const count = (id: string) => signals.filter((s) => s.id === id).length;
    // 3 nodes × 2 providers, plus the "prometheus" line; key_id also per plugin; TTL and breaker per plugin.
    expect([
      count("kms.latency.high"),
      count("kms.decrypt.errors"),
      count("kms.keyid.flapping"),
      count("kms.auth.ttl-low"),
      count("kms.plugin.unhealthy"),
    ]).toEqual([7, 7, 10, 4, 3]);
    expect(pick(signals, "kms.latency.high", "master-0/1_secrets")?.detail).toBe("Status p99 1 ms, Encrypt p99 1 ms, Decrypt p99 1 ms (warning at 100 ms)");
    expect(pick(signals, "kms.decrypt.errors", "master-0/1_secrets")?.detail).toBe("no failed decrypts in 5m (0.5/s calls)");
    expect(pick(signals, "kms.auth.ttl-low", "master-1/1")?.detail).toBe("token valid for 32 days; client certificate valid for 90 days");
    expect(pick(signals, "kms.plugin.unhealthy", "master-1/1/circuit-breaker")?.detail).toBe("circuit breaker closed");
    expect(pick(signals, "kms.latency.high", "prometheus")).toMatchObject({ state: "ok", detail: "answered for 6 subjects" });
  });
});

describe("KMS call latency", () => {
  it("warns above 100 ms and is critical from 1 s, naming the slow method", () => {
    const warning = pick(deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "latencyP99", decrypt, 0.18), NOW), "kms.latency.high", "master-2/1_secrets");
    expect(warning).toMatchObject({
      state: "warning",
      detail: "Status p99 1 ms, Encrypt p99 1 ms, Decrypt p99 180 ms: above 100 ms; Transit answers in milliseconds when healthy",
    });
    const critical = pick(deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "latencyP99", decrypt, 1.2), NOW), "kms.latency.high", "master-2/1_secrets");
    expect(critical?.state).toBe("critical");
    expect(critical?.detail).toContain("Decrypt p99 1.2 s: at or above 1 s, close to the API server's 3 s KMS timeout");
  });

  it("reads +Inf (beyond the last bucket) as critical, NaN as no calls, a negative p99 as unknown", () => {
    const inf = pick(deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "latencyP99", decrypt, "+Inf"), NOW), "kms.latency.high", "master-2/1_secrets");
    expect(inf).toMatchObject({ state: "critical" });
    expect(inf?.detail).toContain("Decrypt p99 beyond the largest histogram bucket");
    const idle = setSampleValue(sampleKmsMetrics(), "latencyP99", { node: "master-2", provider_name: "1_secrets" }, "NaN");
    expect(pick(deriveMetricSignals(idle, NOW), "kms.latency.high", "master-2/1_secrets")).toMatchObject({
      state: "unknown",
      detail: "no KMS calls in the last 5m to measure",
    });
    const negative = pick(deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "latencyP99", decrypt, -3), NOW), "kms.latency.high", "master-2/1_secrets");
    expect(negative?.state).toBe("unknown");
  });
});

describe("decrypt errors", () => {
  it("warns on any failed decrypt and is critical from 5% of them", () => {
    const few = setSampleValue(sampleKmsMetrics(), "errorRate", decrypt, 0.01);
    expect(pick(deriveMetricSignals(few, NOW), "kms.decrypt.errors", "master-2/1_secrets")).toMatchObject({
      state: "warning",
      detail: "Decrypt failing: 0.01/s of 0.5/s (2%) over 5m; reads of encrypted objects fail",
    });
    const all = setSampleValue(sampleKmsMetrics(), "errorRate", decrypt, 0.5);
    expect(pick(deriveMetricSignals(all, NOW), "kms.decrypt.errors", "master-2/1_secrets")).toMatchObject({
      state: "critical",
      detail: expect.stringContaining("(100%)"),
    });
    expect(pick(deriveMetricSignals(all, NOW), "kms.decrypt.errors", "master-1/1_secrets")?.state).toBe("ok");
  });

  it("counts Encrypt errors out of the decrypt check, and errors with no request rate as all failing", () => {
    const encrypt = setSampleValue(sampleKmsMetrics(), "errorRate", { ...decrypt, method: "Encrypt" }, 0.05);
    expect(pick(deriveMetricSignals(encrypt, NOW), "kms.decrypt.errors", "master-2/1_secrets")?.state).toBe("ok");
    const zero = setSampleValue(setSampleValue(sampleKmsMetrics(), "requestRate", decrypt, 0), "errorRate", decrypt, 0.2);
    expect(pick(deriveMetricSignals(zero, NOW), "kms.decrypt.errors", "master-2/1_secrets")).toMatchObject({
      state: "critical",
      detail: expect.stringContaining("(100%)"),
    });
  });

  it("is unknown for NaN or negative rates, never ok", () => {
    for (const bad of ["NaN", -1, "+Inf"] as const) {
      const m = setSampleValue(sampleKmsMetrics(), "errorRate", decrypt, bad);
      expect(pick(deriveMetricSignals(m, NOW), "kms.decrypt.errors", "master-2/1_secrets")?.state, String(bad)).toBe("unknown");
    }
  });
});

describe("key_id changes", () => {
  it("takes one change for a rotation, warns from two and is critical from four, for kube-apiserver and the plugin", () => {
    const at = (n: number) =>
      pick(
        deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "keyIdChanges", { node: "master-0", provider_name: "1_secrets" }, n), NOW),
        "kms.keyid.flapping",
        "master-0/1_secrets",
      );
    expect(at(1)).toMatchObject({ state: "ok", detail: "Status key_id changed once in 15m (a rotation)" });
    expect(at(2)?.state).toBe("warning");
    expect(at(9)).toMatchObject({ state: "critical", detail: "Status key_id changed 9 times in 15m: flip-flopping between keys; pin the active key" });
    const plugin = setSampleValue(sampleKmsMetrics(), "pluginKeyIdChanges", { node: "master-1", key_id: "1" }, 5);
    expect(pick(deriveMetricSignals(plugin, NOW), "kms.keyid.flapping", "master-1/1")).toMatchObject({
      state: "critical",
      detail: expect.stringMatching(/^the plugin's key_id changed 5 times/),
    });
  });
});

describe("token and certificate TTL", () => {
  const ttl = (name: "tokenTtl" | "certificateTtl", value: number | "NaN") =>
    pick(deriveMetricSignals(setSampleValue(sampleKmsMetrics(), name, { node: "master-1", key_id: "1" }, value), NOW), "kms.auth.ttl-low", "master-1/1");

  it("warns under 10 minutes, is critical at 2 minutes and at expiry, naming only what is short", () => {
    expect(ttl("tokenTtl", 300)).toMatchObject({ state: "warning", detail: "token expires in 5 min; renewal should have happened by now" });
    expect(ttl("certificateTtl", 120)).toMatchObject({ state: "critical", detail: "client certificate expires in 2 min; renewal is failing" });
    expect(ttl("tokenTtl", 0)).toMatchObject({ state: "critical", detail: "token expired: the plugin cannot reach Transit" });
    expect(ttl("tokenTtl", -30)).toMatchObject({ state: "critical", detail: "token expired 30 s ago: the plugin cannot reach Transit" });
  });

  it("takes a zero certificate TTL as certificate auth not in use, and NaN as unknown", () => {
    expect(ttl("certificateTtl", 0)).toMatchObject({ state: "ok", detail: "token valid for 32 days; client certificate auth not in use" });
    expect(ttl("tokenTtl", "NaN")).toMatchObject({ state: "unknown", detail: "token TTL is not a number" });
  });
});

describe("the plugin's circuit breaker", () => {
  it("is critical when open and unknown for a state the plugin does not define", () => {
    const open = deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "circuitBreaker", { node: "master-1", key_id: "1" }, 1), NOW);
    expect(pick(open, "kms.plugin.unhealthy", "master-1/1/circuit-breaker")?.state).toBe("critical");
    const odd = deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "circuitBreaker", { node: "master-1", key_id: "1" }, 2), NOW);
    expect(pick(odd, "kms.plugin.unhealthy", "master-1/1/circuit-breaker")).toMatchObject({
      state: "unknown",
      detail: "circuit breaker state 2 is neither 0 (closed) nor 1 (open)",
    });
  });
});

describe("writes through the identity provider", () => {
  it("is ok with no such series while kube-apiserver is scraped, and critical per node and resource for plaintext writes", () => {
    expect(pick(deriveMetricSignals(sampleKmsMetrics(), NOW), "encryption.identity-fallback", "cluster")).toMatchObject({
      state: "ok",
      detail: "no writes through the identity provider in 15m: new objects are encrypted",
    });
    const plain = deriveMetricSignals(
      setSampleValue(sampleKmsMetrics(), "identityWrites", { instance: "master-1", node: "master-1", resource: "secrets" }, 7.2),
      NOW,
    );
    expect(plain.filter((s) => s.id === "encryption.identity-fallback").map((s) => [s.subject, s.state, s.detail])).toEqual([
      [
        "master-1/secrets",
        "critical",
        "7 writes of secrets stored as plaintext (identity provider) in 15m: identity comes before the KMS provider; those objects stay unencrypted in etcd until rewritten",
      ],
    ]);
  });

  it("does not call a zero count a plaintext write", () => {
    const zero = deriveMetricSignals(setSampleValue(sampleKmsMetrics(), "identityWrites", { node: "master-1", resource: "secrets" }, 0), NOW);
    expect(zero.filter((s) => s.id === "encryption.identity-fallback").map((s) => [s.subject, s.state])).toEqual([["cluster", "ok"]]);
  });
});

describe("when Prometheus cannot answer", () => {
  function failing(m: KmsMetrics, name: keyof KmsMetrics["metrics"], message: string): KmsMetrics {
    m.metrics[name] = { ...m.metrics[name], answered: false, series: [] };
    m.errors.push({ metric: name, query: "instant", kind: "prometheus", status: 422, errorType: "execution", message });
    return m;
  }

  it("makes only the checks of the failed query unknown, with Prometheus' reason", () => {
    const signals = deriveMetricSignals(failing(sampleKmsMetrics(), "latencyP99", "Prometheus refused the query (HTTP 422, execution): query timed out"), NOW);
    expect(signals.filter((s) => s.id === "kms.latency.high")).toEqual([
      expect.objectContaining({
        subject: "prometheus",
        state: "unknown",
        detail: "Prometheus query failed (latencyP99: Prometheus refused the query (HTTP 422, execution): query timed out)",
      }),
    ]);
    expect(notOk(signals)).toEqual(["kms.latency.high prometheus unknown"]);
  });

  it("keeps the token verdicts when only the certificate query fails, but no decrypt verdict without the error rate", () => {
    const signals = deriveMetricSignals(failing(failing(sampleKmsMetrics(), "certificateTtl", "timeout"), "errorRate", "timeout"), NOW);
    expect(pick(signals, "kms.auth.ttl-low", "master-0/1")).toMatchObject({ state: "ok", detail: "token valid for 32 days" });
    expect(pick(signals, "kms.auth.ttl-low", "prometheus")?.state).toBe("unknown");
    expect(signals.filter((s) => s.id === "kms.decrypt.errors").map((s) => `${s.subject} ${s.state}`)).toEqual(["prometheus unknown"]);
  });

  it("says so when Prometheus answers but has no KMS series at all", () => {
    const m = sampleKmsMetrics();
    for (const metric of Object.values(m.metrics)) metric.series = [];
    const signals = deriveMetricSignals(m, NOW);
    expect(signals.map((s) => `${s.id} ${s.subject} ${s.state}`)).toEqual([
      "kms.latency.high prometheus unknown",
      "kms.decrypt.errors prometheus unknown",
      "kms.keyid.flapping prometheus unknown",
      "kms.auth.ttl-low prometheus unknown",
      "kms.plugin.errors prometheus unknown",
      "encryption.identity-fallback cluster unknown",
    ]);
    expect(signals[0].detail).toBe("no latencyP99 series: is Prometheus scraping kube-apiserver and the KMS plugins?");
  });

  it("does not vouch for metrics older than five minutes", () => {
    const signals = deriveMetricSignals(sampleKmsMetrics(), new Date(NOW.getTime() + 10 * 60_000));
    expect(signals.every((s) => s.state === "unknown")).toBe(true);
    expect(pick(signals, "kms.auth.ttl-low", "master-0/1")?.detail).toMatch(/^metrics are 10 min old; last read: token valid/);
  });
});

describe("hostile input", () => {
  it("survives missing metrics, null values and broken series without throwing", () => {
    const m = sampleKmsMetrics();
    Reflect.deleteProperty(m.metrics, "tokenTtl");
    // Broken series come as JSON (a stored snapshot, a broken exporter) that no type describes.
    m.metrics.latencyP99.series.push(...(JSON.parse('[null, { "labels": null, "value": 1 }]') as MetricSeries[]));
    setSampleValue(m, "circuitBreaker", { node: "master-0", key_id: "1" }, null);
    const signals = deriveMetricSignals(m, NOW);
    expect(pick(signals, "kms.auth.ttl-low", "prometheus")).toMatchObject({ state: "unknown", detail: "Prometheus query failed (tokenTtl: no answer)" });
    expect(pick(signals, "kms.auth.ttl-low", "master-0/1")?.detail).toBe("client certificate valid for 90 days");
    expect(pick(signals, "kms.plugin.unhealthy", "master-0/1/circuit-breaker")).toBeUndefined();
    expect(pick(signals, "kms.latency.high", "prometheus")?.state).toBe("ok");
  });

  it("caps subjects per check, keeps the failing ones, and clips huge labels", () => {
    const m = sampleKmsMetrics();
    const huge = "n".repeat(100_000);
    m.metrics.tokenTtl.series = Array.from({ length: 5000 }, (_, i) => ({ labels: { node: `${huge}-${i}`, key_id: String(i) }, value: 2764800, points: [] }));
    m.metrics.tokenTtl.series[4321].value = 30;
    m.metrics.certificateTtl.series = [];
    const signals = deriveMetricSignals(m, NOW).filter((s) => s.id === "kms.auth.ttl-low");
    expect(signals).toHaveLength(MAX_SUBJECTS_PER_CHECK + 1);
    expect(signals.filter((s) => s.state === "critical")).toHaveLength(1);
    expect(Math.max(...signals.map((s) => s.subject.length))).toBeLessThanOrEqual(81 + 1 + 4);
    expect(pick(signals, "kms.auth.ttl-low", "prometheus")).toMatchObject({
      state: "warning",
      detail: `answered for 5000 subjects; 4800 more subjects not listed (limit ${MAX_SUBJECTS_PER_CHECK})`,
    });
  });
});
