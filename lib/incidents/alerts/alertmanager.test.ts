import { describe, expect, it } from "vitest";
import { AlertmanagerPayload, idsFromUrl, mapAlert } from "./alertmanager";

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
