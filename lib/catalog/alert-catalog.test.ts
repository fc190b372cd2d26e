import { afterEach, describe, expect, it } from "vitest";
import { brokenCatalog, catalogErrors, lineOf } from "@/test/catalog-copy";
import { PLUGIN_RULES, PLUGIN_RULES_FILE } from "@/test/openbao-kms-rules";
import { fillReads } from "./alert-catalog";
import { loadCatalog } from "./load";

// catalog/alerts.yaml: the alerts people already run, each mapped to a signal and to what its cause labels say.

describe("the shipped alerts file", () => {
  const catalog = loadCatalog();
  const signals = new Set(catalog.signals.map((s) => s.id));
  const classesOf = (text: string) => catalog.errorClasses.filter((c) => c.patterns.some((p) => p.test(text))).map((c) => c.id);

  it("maps every rule of the KMS plugin's own rules file, citing that file", () => {
    for (const rule of PLUGIN_RULES) {
      const entry = catalog.alerts.find((e) => e.alerts.includes(rule.alert));
      expect(entry, rule.alert).toBeDefined();
      expect(entry!.from, rule.alert).toContain(PLUGIN_RULES_FILE);
    }
  });

  it("restates signals the catalog has, and says so where it restates none", () => {
    for (const entry of catalog.alerts) {
      if (entry.signal) expect(signals, entry.id).toContain(entry.signal);
      else expect(entry.note, `${entry.id} restates no signal and must say why`).toMatch(/no check/);
    }
    expect(catalog.alerts.filter((e) => e.signal === null).map((e) => e.id)).toEqual(["openbao-kms-rotation-pending-stuck", "openbao-audit-log-failure", "openbao-rate-limit-quota"]);
  });

  it("quotes the plugin's bounded label values into the selector its rule reads, where the error classes name them", () => {
    const byName = (name: string) => catalog.alerts.find((e) => e.alerts.includes(name))!;
    const classes = (name: string, labels: Record<string, string>) => classesOf(fillReads(byName(name), labels));
    expect(fillReads(byName("OpenBaoKMSAADValidationErrors"), { reason: "aad_mismatch" })).toBe('openbao_kms_aad_validation_errors_total{reason="aad_mismatch"}');
    expect(classes("OpenBaoKMSAADValidationErrors", { reason: "aad_mismatch" })).toEqual(["aead-authentication-failed"]);
    expect(classes("OpenBaoKMSAADValidationErrors", { reason: "annotation_invalid" })).toEqual(["kms-annotations-invalid"]);
    expect(classes("OpenBaoKMSMetadataProbeFailing", { status: "sealed" })).toEqual(["openbao-sealed"]);
    expect(classes("OpenBaoKMSMetadataProbeFailing", { status: "not_found" })).toEqual(["transit-key-not-found"]);
    expect(classes("OpenBaoKMSMetadataProbeFailing", { status: "dns_failed" })).toEqual(["dns-lookup-failed"]);
    expect(classes("OpenBaoKMSMetadataProbeFailing", { status: "error" })).toEqual([]);
    expect(classes("OpenBaoKMSAuthFailures", { status: "jwt_expired" })).toEqual(["jwt-expired"]);
    expect(classes("OpenBaoKMSAuthFailures", { status: "oauth2_rejected" })).toEqual(["oauth2-token-endpoint-failed"]);
    expect(classes("OpenBaoKMSUnknownKeyIDErrors", {})).toEqual(["kms-key-id-unknown"]);
    expect(classes("KubeAPIServerKMSOperationErrors", { grpc_status_code: "DeadlineExceeded", method_name: "/v2.KeyManagementService/Decrypt" })).toEqual([
      "deadline-exceeded",
    ]);
    expect(classes("KubeAPIServerKMSInvalidKeyID", { error: "too_long" })).toEqual(["kms-key-id-invalid"]);
    // A label value is quoted as PromQL quotes it: it cannot close the selector.
    expect(fillReads(byName("OpenBaoKMSAADValidationErrors"), { reason: 'x"} or vector(1)' })).toBe('openbao_kms_aad_validation_errors_total{reason="x\\"} or vector(1)"}');
  });

  it("classifies each of the plugin's error classes that names a failure mode (its log's error_class, in an alert's label)", () => {
    // internal/kmsv2/error_policy.go and error_policy_test.go at 1d0e7750: every class a request can end with.
    const named = [
      "timeout", "key_metadata_refresh_failed", "protocol_limit", "concurrency_limit", "key_id_malformed", "key_id_unknown",
      "annotation_invalid", "aad_mismatch", "aad_missing", "status_stale", "panic", "auth_failed", "transit_policy_denied",
      "transit_key_missing", "openbao_rate_limited", "openbao_sealed", "openbao_unavailable", "openbao_tls_failed",
      "openbao_dns_failed", "openbao_connection_failed",
    ];
    for (const value of named) expect(classesOf(`BaoKmsRequestErrors{error_class="${value}"}`), value).not.toEqual([]);
    for (const value of ["canceled", "unknown"]) expect(classesOf(`BaoKmsRequestErrors{error_class="${value}"}`), value).toEqual([]);
  });
});

describe("a broken alerts file", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());
  const broken = (edit: (text: string) => string) => {
    const copy = brokenCatalog("alerts.yaml", edit);
    cleanup = copy.cleanup;
    return copy.root;
  };

  it("names an unknown signal, a cause label not quoted and an alert mapped twice, each at its line", () => {
    const root = broken((t) =>
      t
        .replace("signal: kms.auth.ttl-low", "signal: kms.auth.nearly-gone")
        .replace("alerts: [OpenBaoKMSTokenTTLShort]", "alerts: [OpenBaoKMSTokenTTLShort, OpenBaoKMSAuthFailures]")
        .replace('{method="{{method}}"}) > 0.1', "{}) > 0.1"),
    );
    const errors = catalogErrors(root);
    expect(errors).toContain(`catalog/alerts.yaml:${lineOf(root, "alerts.yaml", "signal: kms.auth.nearly-gone")}: openbao-kms-token-ttl-short: unknown signal "kms.auth.nearly-gone" (see catalog/signals.yaml)`);
    expect(errors).toContain(
      `catalog/alerts.yaml:${lineOf(root, "alerts.yaml", "alerts: [OpenBaoKMSTokenTTLShort, OpenBaoKMSAuthFailures]")}: openbao-kms-token-ttl-short: alert "OpenBaoKMSAuthFailures" is already mapped by openbao-kms-auth-failures`,
    );
    expect(errors.some((e) => /openbao-kms-grpc-latency-high: cause label method is not quoted in reads as \{\{method\}\}$/.test(e))).toBe(true);
  });

  it("refuses a value listed as naming a failure mode that no class reads, and an unclassified one that a class reads", () => {
    const root = broken((t) =>
      t.replace("unclassified: [error, unknown, canceled, invalid_request]", "unclassified: [error, unknown, canceled, sealed]").replace(
        "values: [sealed, not_found,",
        "values: [invalid_request, not_found,",
      ),
    );
    const errors = catalogErrors(root);
    expect(errors).toContain(
      `catalog/alerts.yaml:${lineOf(root, "alerts.yaml", "values: [invalid_request, not_found,")}: openbao-kms-metadata-probe-failing: status="invalid_request" adds no error class to what reads says (list it under unclassified, or add a class)`,
    );
    expect(errors).toContain(
      `catalog/alerts.yaml:${lineOf(root, "alerts.yaml", "unclassified: [error, unknown, canceled, sealed]")}: openbao-kms-metadata-probe-failing: status="sealed" classifies as openbao-sealed: list it under values`,
    );
  });

  it("refuses a class an entry implies that what it reads does not show", () => {
    const root = broken((t) => t.replace("classes: [kms-status-stale]", "classes: [kms-status-stale, openbao-sealed]"));
    expect(catalogErrors(root)).toContain(
      `catalog/alerts.yaml:${lineOf(root, "alerts.yaml", "classes: [kms-status-stale, openbao-sealed]")}: openbao-kms-status-cache-stale: reads does not show the class openbao-sealed it implies`,
    );
  });
});
