import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { AlertmanagerPayload, idsFromUrl, mapAlert } from "./alertmanager";
import { alertKnowledge } from "./alert-reading";

// How an Alertmanager alert becomes a fingerprint, a severity and links (docs/alertmanager.md).

const alert = (labels: Record<string, string>, annotations: Record<string, string> = {}) => ({
  status: "firing" as const,
  labels: { alertname: "OpenBaoSealed", ...labels },
  annotations,
  startsAt: "2026-11-22T12:00:00Z",
  endsAt: "0001-01-01T00:00:00Z",
  fingerprint: "f00d",
});

describe("mapping an alert", () => {
  it("takes cluster, signal and subject from the labels, in the documented order", () => {
    const mapped = mapAlert(
      alert({ cluster: "prod", signal: "openbao.sealed", subject: "openbao", instance: "bao-0:8200", severity: "page" }),
      { commonLabels: {} },
      "fallback",
    );
    expect(mapped).toMatchObject({
      cluster: "prod",
      signal: "openbao.sealed",
      subject: "openbao",
      severity: "critical",
      endsAt: null,
      title: "OpenBaoSealed (openbao)",
    });
    const plain = mapAlert(alert({ instance: "bao-0:8200" }), { commonLabels: { severity: "info" } }, "from-url");
    expect(plain).toMatchObject({ cluster: "from-url", signal: "OpenBaoSealed", subject: "bao-0:8200", severity: "info" });
    expect(mapAlert(alert({ faultline_cluster: "a", cluster: "b", node: "master-2" }), { commonLabels: {} }, undefined)).toMatchObject({
      cluster: "a",
      subject: "master-2",
      severity: "warning",
    });
    expect(mapAlert(alert({}), { commonLabels: {} }, undefined)).toMatchObject({ cluster: "alertmanager", subject: "cluster" });
  });

  it("finds catalog and runbook ids in labels, annotations and runbook URLs", () => {
    const mapped = mapAlert(
      alert(
        { faultline_catalog_id: "openbao-sealed" },
        {
          runbook_url: "https://faultline.example/ops/runbooks/openbao-sealed-or-unreachable?path=A.B",
          catalog_url: "https://faultline.example/catalog/jwt-expired-apiserver-down",
        },
      ),
      { commonLabels: {} },
      undefined,
    );
    expect(mapped.catalogIds).toEqual(["openbao-sealed", "jwt-expired-apiserver-down"]);
    expect(mapped.runbookIds).toEqual(["openbao-sealed-or-unreachable"]);
    expect(idsFromUrl("https://wiki.example/KMS")).toEqual({ catalog: [], runbooks: [] });
    expect(idsFromUrl("http://x/catalog/Not_A_Slug")).toEqual({ catalog: [], runbooks: [] });
    expect(idsFromUrl("::not a url::")).toEqual({ catalog: [], runbooks: [] });
  });

  it("joins an alert from Faultline's own rules to Faultline's member, without re-weighting the suspects by its catalog ids", () => {
    const labels = {
      alertname: "FaultlineOpenbaoSealed",
      cluster: "demo",
      signal: "openbao.sealed",
      subject: "openbao",
      severity: "critical",
      faultline_origin: "faultline",
      faultline_cluster: "demo",
      faultline_signal: "openbao.sealed",
      faultline_subject: "openbao",
      faultline_catalog_id: "openbao-sealed,stack-openbao-down",
    };
    const annotations = { runbook_url: "http://127.0.0.1:3000/catalog/openbao-sealed" };
    const mapped = mapAlert(alert(labels, annotations), { commonLabels: {} }, "other");
    expect(mapped).toMatchObject({ cluster: "demo", signal: "openbao.sealed", subject: "openbao", severity: "critical", catalogIds: [], runbookIds: [] });
    // Only the exact value marks it: anything else is an ordinary alert, whose ids are links.
    for (const origin of ["Faultline", "faultline ", "prometheus"])
      expect(mapAlert(alert({ ...labels, faultline_origin: origin }, annotations), { commonLabels: {} }, "other").catalogIds).toEqual([
        "openbao-sealed",
        "stack-openbao-down",
      ]);
  });

  it("accepts Alertmanager's own payload and refuses other shapes", () => {
    const ok = AlertmanagerPayload.safeParse({
      version: "4",
      groupKey: "{}",
      status: "firing",
      receiver: "faultline",
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
      externalURL: "http://am",
      truncatedAlerts: 0,
      alerts: [alert({})],
    });
    expect(ok.success).toBe(true);
    expect(AlertmanagerPayload.safeParse({ version: "4", groupKey: "{}", status: "firing", receiver: "r", alerts: [] }).success).toBe(false);
    expect(
      AlertmanagerPayload.safeParse({ version: "4", groupKey: "{}", status: "firing", receiver: "r", alerts: [{ ...alert({}), labels: { alertname: 5 } }] })
        .success,
    ).toBe(false);
  });
});

describe("what an alert says, read with the catalog", () => {
  const known = alertKnowledge(getCatalog());
  const read = (labels: Record<string, string>, annotations: Record<string, string> = {}, generatorURL?: string) =>
    mapAlert({ ...alert(labels, annotations), ...(generatorURL ? { generatorURL } : {}) }, { commonLabels: {} }, "prod", known);

  it("restates the signal of the plugin's own rule and quotes its cause label into the selector the rule reads", () => {
    const mapped = read(
      { alertname: "OpenBaoKMSAADValidationErrors", instance: "10.0.1.11:9464", job: "openbao-kms", reason: "aad_mismatch", severity: "warning" },
      { summary: "OpenBao KMS AAD validation errors", description: "Decrypt requests are failing AAD validation with reason aad_mismatch on 10.0.1.11:9464." },
    );
    expect(mapped).toMatchObject({
      signal: "kms.plugin.errors",
      subject: "10.0.1.11:9464 (OpenBaoKMSAADValidationErrors, reason=aad_mismatch)",
      target: "10.0.1.11:9464",
      title: "OpenBao KMS AAD validation errors",
      catalogAlert: "openbao-kms-aad-validation-errors",
      unknownWords: [],
      unmapped: { signal: "OpenBaoKMSAADValidationErrors", subject: "10.0.1.11:9464" },
    });
    expect(mapped.texts).toEqual([
      'openbao_kms_aad_validation_errors_total{reason="aad_mismatch"}',
      'OpenBaoKMSAADValidationErrors{instance="10.0.1.11:9464",job="openbao-kms",reason="aad_mismatch",severity="warning"}',
      "OpenBao KMS AAD validation errors",
      "Decrypt requests are failing AAD validation with reason aad_mismatch on 10.0.1.11:9464.",
    ]);
    expect(mapped.causeTexts).toEqual(['openbao_kms_aad_validation_errors_total{reason="aad_mismatch"}']);
    // Two causes on one target are two members, each resolved by its own alert.
    const other = read({ alertname: "OpenBaoKMSAADValidationErrors", instance: "10.0.1.11:9464", reason: "annotation_invalid" });
    expect(other.subject).not.toBe(mapped.subject);
  });

  it("knows a rule it has no name for by what its expression reads (Prometheus's generatorURL)", () => {
    const expr =
      'sum by (provider_name, method_name, grpc_status_code) (rate(apiserver_envelope_encryption_kms_operations_latency_seconds_count{grpc_status_code!="OK"}[5m])) > 0';
    const url = `http://prometheus:9090/graph?g0.expr=${encodeURIComponent(expr).replace(/%20/g, "+")}&g0.tab=1`;
    const mapped = read(
      {
        alertname: "EncryptionAtRestKMSErrors",
        instance: "master-1:6443",
        method_name: "/v2.KeyManagementService/Decrypt",
        grpc_status_code: "DeadlineExceeded",
      },
      {},
      url,
    );
    expect(mapped).toMatchObject({ catalogAlert: "kube-apiserver-kms-operation-errors", signal: "kms.decrypt.errors", unknownWords: [] });
    expect(mapped.texts[0]).toBe(
      'apiserver_envelope_encryption_kms_operations_latency_seconds_count{method_name="/v2.KeyManagementService/Decrypt",grpc_status_code="DeadlineExceeded"}',
    );
    // Any other expression, or none, identifies nothing.
    expect(read({ alertname: "EncryptionAtRestKMSErrors" }, {}, "http://prometheus:9090/graph?g0.expr=up+%3D%3D+0").catalogAlert).toBeNull();
    expect(read({ alertname: "EncryptionAtRestKMSErrors" }, {}, "::not a url::").catalogAlert).toBeNull();
  });

  it("lists the words nothing recognised: an unknown alert's name and labels, a known rule's unknown cause value", () => {
    const unknown = read({
      alertname: "BaoKmsTrouble",
      cluster: "prod",
      instance: "n1",
      error_class: "openbao_tls_failed",
      phase: "rollout",
      team: "platform",
    });
    expect(unknown).toMatchObject({ catalogAlert: null, signal: "BaoKmsTrouble", subject: "n1", unmapped: null });
    // error_class is the plugin's own word (a class reads it); placing labels (cluster, instance) are not words.
    expect(unknown.unknownWords).toEqual(["BaoKmsTrouble", 'phase="rollout"', 'team="platform"']);
    expect(unknown.causeTexts).toEqual(['error_class="openbao_tls_failed"', 'phase="rollout"', 'team="platform"']);
    const known = read({ alertname: "OpenBaoKMSMetadataProbeFailing", instance: "n1", status: "quota_exhausted" });
    expect(known.unknownWords).toEqual(['status="quota_exhausted"']);
    // An alert labelled for Faultline says what it is itself.
    expect(read({ alertname: "MyOwnSealedAlert", signal: "openbao.sealed", subject: "openbao", vault_cluster: "dc2" }).unknownWords).toEqual([]);
  });

  it("maps an alert labelled for Faultline (a signal, a subject or a link) as its labels say, not as the catalog would", () => {
    const linked = read(
      { alertname: "OpenBaoSealed", cluster: "prod", faultline_subject: "openbao", faultline_catalog_id: "openbao-sealed", severity: "critical" },
      { summary: "sealed" },
    );
    expect(linked).toMatchObject({ signal: "OpenBaoSealed", subject: "openbao", catalogAlert: null, unknownWords: [], causeTexts: [], unmapped: null });
    // Its labels and annotations are still its texts.
    expect(linked.texts).toEqual([
      'OpenBaoSealed{cluster="prod",faultline_catalog_id="openbao-sealed",faultline_subject="openbao",severity="critical"}',
      "sealed",
    ]);
    const plain = read({ alertname: "OpenBaoSealed", cluster: "prod", instance: "openbao-0:8200", severity: "critical" });
    expect(plain).toMatchObject({ signal: "openbao.sealed", subject: "openbao-0:8200 (OpenBaoSealed)", catalogAlert: "openbao-sealed-telemetry" });
  });

  it("hides anything shaped like a credential in labels, annotations and texts, and keeps the alert name", () => {
    const token = "hvs.CAESIJx3k9vQ2mN8pL4rT6wY1zB5cD7eF0gH";
    const mapped = read(
      { alertname: "OpenBaoKMSAuthFailures", instance: "n1", status: "auth_failed", token: "s3cr3t-value-1234" },
      { description: `login with ${token} failed`, runbook_url: "https://wiki.example/kms?password=hunter2hunter2" },
    );
    const stored = JSON.stringify([mapped.labels, mapped.annotations, mapped.texts]);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain("s3cr3t-value-1234");
    expect(stored).not.toContain("hunter2hunter2");
    expect(mapped.labels).toMatchObject({ alertname: "OpenBaoKMSAuthFailures", token: "[hidden]", status: "auth_failed" });
    expect(mapped.annotations.description).toBe("login with [hidden] failed");
  });
});
