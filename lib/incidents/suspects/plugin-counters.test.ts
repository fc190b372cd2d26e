import { describe, expect, it } from "vitest";
import { SAMPLE_AT, sampleKmsMetrics, setSampleValue } from "@/test/sample-metrics";
import { getCatalog } from "@/lib/catalog/queries";
import { classifyText } from "@/lib/diagnosis/classify";
import { evidenceTexts, rankSuspects } from "./suspects";
import { deriveMetricSignals } from "@/lib/signals/derive-metric-signals";

// The plugin's own failure counters as one signal per plugin (lib/signals/derive-plugin-counters.ts), quoted so the
// error classes read them: a refused decrypt names its reason, repeated unclean exits name a crash loop.

const plugin = (node: string) => ({ instance: `${node}/kms-1`, node, key_id: "1" });
const counter = (metric: string, labels: Record<string, string> = {}) => ({ ...plugin("master-1"), metric, ...labels });
const errorsOf = (m = sampleKmsMetrics()) => deriveMetricSignals(m, SAMPLE_AT).filter((s) => s.id === "kms.plugin.errors");
const classesOf = (text: string) => classifyText(text, getCatalog().errorClasses).map((h) => h.id);

describe("the plugin's failure counters", () => {
  it("is ok per plugin while nothing is counted", () => {
    const signals = errorsOf();
    expect(signals.map((s) => `${s.subject} ${s.state}`)).toEqual(["master-0/1 ok", "master-1/1 ok", "master-2/1 ok", "prometheus ok"]);
  });

  it("is critical for refused decrypts and quotes each counter with its reason, largest first", () => {
    const m = sampleKmsMetrics();
    setSampleValue(m, "pluginFailures", counter("openbao_kms_aad_validation_errors_total", { reason: "aad_mismatch" }), 60);
    setSampleValue(m, "pluginFailures", counter("openbao_kms_auth_renewal_total", { status: "error" }), 2.4);
    const s = errorsOf(m).find((x) => x.subject === "master-1/1")!;
    expect(s.state).toBe("critical");
    expect(s.detail).toBe("The plugin counted in 15m: decrypts refused by AAD validation (aad_mismatch): 60; token renewals failed (error): 2");
    expect(s.problem?.fields.counters).toBe(
      'openbao_kms_aad_validation_errors_total{reason="aad_mismatch"} +60 in 15m; openbao_kms_auth_renewal_total{status="error"} +2 in 15m',
    );
    expect(classesOf(String(s.problem?.fields.counters))).toContain("aead-authentication-failed");
  });

  it("tells one unclean exit from repeated ones, and ranks a crash loop first only for the repeated", () => {
    const restarts = (n: number) => {
      const m = setSampleValue(sampleKmsMetrics(), "pluginFailures", counter("openbao_kms_socket_restarts_total"), n);
      return errorsOf(m).find((x) => x.subject === "master-1/1")!;
    };
    const once = restarts(1);
    const often = restarts(6);
    expect([once.state, often.state]).toEqual(["warning", "critical"]);
    expect(classesOf(String(once.problem?.fields.counters))).toEqual(["plugin-unclean-exit"]);
    expect(classesOf(String(often.problem?.fields.counters))).toEqual(["plugin-unclean-exits-repeated"]);
    const top = (s: typeof once) =>
      rankSuspects({ active: [{ signal: s.id, subject: s.subject, state: s.state, detail: s.detail, texts: evidenceTexts(s) }] })[0]?.id;
    expect(top(often)).toBe("kms-plugin-crash-loop");
  });

  it("names key_id and annotation refusals by their own classes", () => {
    const m = sampleKmsMetrics();
    setSampleValue(m, "pluginFailures", counter("openbao_kms_decrypt_key_id_errors_total", { reason: "key_id_unknown" }), 120);
    setSampleValue(m, "pluginFailures", { ...plugin("master-2"), metric: "openbao_kms_aad_validation_errors_total", reason: "annotation_invalid" }, 12);
    const [one, two] = ["master-1/1", "master-2/1"].map((subject) => errorsOf(m).find((x) => x.subject === subject)!);
    expect(classesOf(String(one.problem?.fields.counters))).toEqual(["kms-key-id-unknown"]);
    expect(classesOf(String(two.problem?.fields.counters))).toEqual(["kms-annotations-invalid"]);
  });

  it("reads the OpenBao error class the plugin puts on its failed requests", () => {
    const m = sampleKmsMetrics();
    setSampleValue(m, "pluginFailures", counter("openbao_kms_openbao_requests_total", { operation: "transit_decrypt", status: "sealed" }), 30);
    const s = errorsOf(m).find((x) => x.subject === "master-1/1")!;
    expect(s.detail).toBe("The plugin counted in 15m: OpenBao transit_decrypt failed (sealed): 30");
    expect(s.problem?.fields.counters).toBe('openbao_kms_openbao_requests_total{operation="transit_decrypt",status="sealed"} +30 in 15m');
    expect(classesOf(String(s.problem?.fields.counters))).toEqual(["openbao-sealed"]);
  });

  it("ignores counters it does not know, non-numbers and values that round to zero, and clips a huge label", () => {
    const m = sampleKmsMetrics();
    setSampleValue(m, "pluginFailures", counter("openbao_kms_made_up_total"), 9);
    setSampleValue(m, "pluginFailures", counter("openbao_kms_panic_recoveries_total", { method: "decrypt" }), "NaN");
    setSampleValue(m, "pluginFailures", counter("openbao_kms_auth_login_total", { status: "error" }), 0.3);
    expect(errorsOf(m).find((x) => x.subject === "master-1/1")?.state).toBe("ok");
    setSampleValue(m, "pluginFailures", counter("openbao_kms_decrypt_key_id_errors_total", { reason: "x".repeat(5000) }), 3);
    const s = errorsOf(m).find((x) => x.subject === "master-1/1")!;
    expect(s.state).toBe("critical");
    expect(String(s.problem?.fields.counters).length).toBeLessThan(200);
  });
});
