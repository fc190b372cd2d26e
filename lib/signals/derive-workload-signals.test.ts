import { describe, expect, it } from "vitest";
import { fixtureText } from "@/test/fixture-files";
import { describeReadProblem } from "@/lib/sources/kube/read-problem";
import { deriveBridgeSignals, deriveWebhookEndpointSignals } from "./derive-workload-signals";
import { readDaemonSet, readDeployment, readEndpoints, readWebhookConfiguration } from "@/lib/sources/kube/read-workloads";
import { deriveSignals } from "./signals";

const fixture = (name: string) => JSON.parse(fixtureText(name));
const NOW = new Date("2026-08-20T10:15:00Z");

describe("deriveSignals from the webhook fixture", () => {
  const view = readWebhookConfiguration(fixture("mutatingwebhookconfiguration-cloudtaser.json"));
  const withNotAfter = (caNotAfter: string) => ({ ...view, problems: [], webhooks: [{ ...view.webhooks[0], caNotAfter }] });

  it("is present; the placeholder caBundle leaves the expiry unknown, with the reason", () => {
    const signals = deriveSignals({ now: NOW, webhook: view });
    expect(signals.map((s) => [s.id, s.subject, s.state])).toEqual([
      ["webhook.missing", "webhook", "ok"],
      ["webhook.ca.expiring", "inject.cloudtaser.io", "unknown"],
    ]);
    expect(signals[1].detail).toMatch(
      /^caBundle expiry unknown: webhooks\[0\] \("inject\.cloudtaser\.io"\): certificate 1 of 1 is not a valid X\.509 certificate/,
    );
  });

  it("is critical when the configuration is missing", () => {
    expect(deriveSignals({ now: NOW, webhook: null })).toEqual([
      {
        id: "webhook.missing",
        subject: "webhook",
        state: "critical",
        detail: "the MutatingWebhookConfiguration is absent: pods are admitted without injection",
        evidence: null,
        problem: { kind: "webhook-configuration-missing", subject: "webhook", fields: {} },
      },
    ]);
    expect(deriveSignals({ now: NOW, webhook: { ...view, webhooks: [] } })[0]).toMatchObject({ state: "critical" });
  });

  it("warns within caWarningDays, is critical once expired, ok otherwise", () => {
    const state = (notAfter: string, caWarningDays?: number) =>
      deriveSignals({ now: NOW, webhook: withNotAfter(notAfter), caWarningDays }).find((s) => s.id === "webhook.ca.expiring")?.state;
    expect(state("2026-12-01T00:00:00.000Z")).toBe("ok");
    expect(state("2026-09-10T00:00:00.000Z")).toBe("warning");
    expect(state("2026-09-10T00:00:00.000Z", 7)).toBe("ok");
    expect(state("2026-08-20T10:15:00.000Z")).toBe("critical");
    const expired = deriveSignals({ now: NOW, webhook: withNotAfter("2026-08-01T00:00:00.000Z") })[1];
    // The fixture's webhook is failurePolicy Fail: the page says pods are refused, not that they run uninjected.
    expect(expired.detail).toBe(
      "caBundle expired at 2026-08-01T00:00:00.000Z: the API server can no longer call the webhook (failurePolicy Fail: matching pods are refused)",
    );
    const ignoring = withNotAfter("2026-08-01T00:00:00.000Z");
    ignoring.webhooks[0] = { ...ignoring.webhooks[0], failurePolicy: "Ignore" };
    expect(deriveSignals({ now: NOW, webhook: ignoring })[1].detail).toMatch(/\(failurePolicy Ignore: matching pods start without injection\)$/);
  });
});

describe("deriveSignals from the operator Deployment and eBPF DaemonSet fixtures", () => {
  it("the operator is available; with no available replica it is critical", () => {
    const ok = deriveSignals({ now: NOW, operator: readDeployment(fixture("deployment-cloudtaser-operator.json")) });
    expect(ok).toMatchObject([
      { id: "operator.unavailable", subject: "cloudtaser-system/cloudtaser-operator", state: "ok", detail: "1 of 1 replicas available" },
    ]);
    const down = fixture("deployment-cloudtaser-operator.json");
    down.status.availableReplicas = 0;
    expect(deriveSignals({ now: NOW, operator: readDeployment(down) })[0]).toMatchObject({ state: "critical", detail: "0 of 1 replicas available" });
  });

  it("an unreadable Deployment is unknown, not down", () => {
    expect(deriveSignals({ now: NOW, operator: readDeployment("cloudtaser-operator") })[0]).toMatchObject({ subject: "operator", state: "unknown" });
  });

  it("the eBPF agent with 5 of 6 pods ready is a warning; with none ready, critical", () => {
    const partial = deriveSignals({ now: NOW, ebpf: readDaemonSet(fixture("daemonset-cloudtaser-ebpf.json")) });
    expect(partial).toMatchObject([
      { id: "ebpf.daemonset.unavailable", subject: "cloudtaser-system/cloudtaser-ebpf", state: "warning", detail: "5 of 6 agent pods ready: 1 not ready" },
    ]);
    const none = fixture("daemonset-cloudtaser-ebpf.json");
    none.status.numberReady = 0;
    expect(deriveSignals({ now: NOW, ebpf: readDaemonSet(none) })[0]).toMatchObject({ state: "critical", detail: "0 of 6 agent pods ready" });
    const all = fixture("daemonset-cloudtaser-ebpf.json");
    all.status.numberReady = 6;
    expect(deriveSignals({ now: NOW, ebpf: readDaemonSet(all) })[0]).toMatchObject({ state: "ok" });
  });
});

describe("webhook service endpoints", () => {
  const config = (failurePolicy: "Fail" | "Ignore") =>
    readWebhookConfiguration({
      kind: "MutatingWebhookConfiguration",
      metadata: { name: "cloudtaser-operator-webhook" },
      webhooks: [
        {
          name: "inject.cloudtaser.io",
          failurePolicy,
          timeoutSeconds: 10,
          clientConfig: { service: { namespace: "cloudtaser-system", name: "cloudtaser-operator-webhook" } },
        },
      ],
    });
  const endpoints = (addresses: number, notReady = 0) =>
    readEndpoints({
      kind: "Endpoints",
      metadata: { name: "cloudtaser-operator-webhook", namespace: "cloudtaser-system" },
      subsets: [
        {
          addresses: Array.from({ length: addresses }, (_, i) => ({ ip: `10.0.0.${i}` })),
          notReadyAddresses: Array.from({ length: notReady }, () => ({ ip: "10.0.1.1" })),
        },
      ],
    });
  const one = (signals: ReturnType<typeof deriveWebhookEndpointSignals>) => signals.map((s) => [s.id, s.subject, s.state, s.detail]);

  it("is ok with ready endpoints, and critical without, saying what the failure policy does then", () => {
    expect(one(deriveWebhookEndpointSignals(config("Fail"), [endpoints(2)]))).toEqual([
      ["webhook.no-endpoints", "inject.cloudtaser.io", "ok", "service cloudtaser-system/cloudtaser-operator-webhook has 2 ready endpoints"],
    ]);
    expect(one(deriveWebhookEndpointSignals(config("Fail"), [endpoints(0, 1)]))[0]).toEqual([
      "webhook.no-endpoints",
      "inject.cloudtaser.io",
      "critical",
      "service cloudtaser-system/cloudtaser-operator-webhook has no ready endpoints (1 not ready) (failurePolicy Fail: matching pods are refused)",
    ]);
    expect(one(deriveWebhookEndpointSignals(config("Ignore"), []))[0][3]).toBe(
      "service cloudtaser-system/cloudtaser-operator-webhook has no Endpoints object (failurePolicy Ignore: matching pods start without injection)",
    );
  });

  it("reads hostile Endpoints as unknown, never as an outage", () => {
    const bad = readEndpoints({ kind: "Endpoints", metadata: { name: "cloudtaser-operator-webhook", namespace: "cloudtaser-system" }, subsets: "nope" });
    expect(bad.problems.map(describeReadProblem)).toEqual([expect.stringContaining("subsets")]);
    expect(one(deriveWebhookEndpointSignals(config("Fail"), [bad]))[0][2]).toBe("unknown");
    expect(deriveWebhookEndpointSignals(null, [])).toEqual([]);
  });
});

describe("deriveBridgeSignals from a real Deployment shape", () => {
  const bridge = (available: number, replicas = 2) => {
    const d = fixture("deployment-cloudtaser-operator.json");
    d.metadata.name = "cloudtaser-bridge";
    d.spec.replicas = replicas;
    Object.assign(d.status, { replicas, updatedReplicas: replicas, readyReplicas: available, availableReplicas: available });
    return readDeployment(d);
  };
  const one = (input: Parameters<typeof deriveBridgeSignals>[0]) => {
    const [s] = deriveBridgeSignals(input);
    return [s.subject, s.state, s.detail, s.problem?.kind ?? null];
  };

  it("is critical with none available, a warning with some, ok with all", () => {
    expect(one(bridge(0))).toEqual(["cloudtaser-system/cloudtaser-bridge", "critical", "0 of 2 replicas available", "bridge-unavailable"]);
    expect(one(bridge(1))).toEqual(["cloudtaser-system/cloudtaser-bridge", "warning", "1 of 2 replicas available", "bridge-degraded"]);
    expect(one(bridge(2))).toEqual(["cloudtaser-system/cloudtaser-bridge", "ok", "2 of 2 replicas available", null]);
    expect(deriveBridgeSignals(bridge(0))[0].problem?.fields).toEqual({ available: 0, replicas: 2, deleting: false, progressDeadlineExceeded: false });
  });

  it("is unknown when the Deployment cannot be read, and ok (not installed) when there is none", () => {
    expect(one({ unreadable: 'deployments.apps "cloudtaser-bridge" is forbidden: User "system:serviceaccount:faultline:monitor" cannot list' })).toEqual([
      "cloudtaser-system/cloudtaser-bridge",
      "unknown",
      'the bridge Deployment could not be read: deployments.apps "cloudtaser-bridge" is forbidden: User "system:serviceaccount:faultline:monitor" cannot list',
      "bridge-unreadable",
    ]);
    expect(one(readDeployment({ kind: "Deployment", metadata: { name: "cloudtaser-bridge" }, status: "broken" }))[1]).toBe("unknown");
    expect(one({ absent: true })).toEqual([
      "cloudtaser-system/cloudtaser-bridge",
      "ok",
      "no Deployment cloudtaser-system/cloudtaser-bridge: the bridge is not installed, so no workload depends on it here",
      null,
    ]);
  });
});
