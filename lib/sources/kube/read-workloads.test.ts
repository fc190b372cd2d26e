import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeReadProblem, type ReadProblem } from "./read-problem";
import { readDaemonSet, readDeployment, readWebhookConfiguration } from "./read-workloads";

const texts = (problems: readonly ReadProblem[]) => problems.map(describeReadProblem);

const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures", name), "utf8"));

// A real self-signed certificate (public part only), so the notAfter path is exercised with real DER.
const REAL_CERT_PEM = `-----BEGIN CERTIFICATE-----
MIIBzjCCAXOgAwIBAgIUQoiEXSxLynmGPHcRSoC+xfY+JGYwCgYIKoZIzj0EAwIw
PDE6MDgGA1UEAwwxY2xvdWR0YXNlci1vcGVyYXRvci13ZWJob29rLmNsb3VkdGFz
ZXItc3lzdGVtLnN2YzAeFw0yNjExMjIxMzU3NDNaFw0yNzExMjIxMzU3NDNaMDwx
OjA4BgNVBAMMMWNsb3VkdGFzZXItb3BlcmF0b3Itd2ViaG9vay5jbG91ZHRhc2Vy
LXN5c3RlbS5zdmMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQ/2oQopNHVnDpY
FchhUFke8xBaj4w2/mbI5algD1dPPpVgtLHPXIBnkDWUpJFAQqg1/TGKB/wshOen
8WvEI550o1MwUTAdBgNVHQ4EFgQUj9g0uBEsVLilYToQFOENULhOIUAwHwYDVR0j
BBgwFoAUj9g0uBEsVLilYToQFOENULhOIUAwDwYDVR0TAQH/BAUwAwEB/zAKBggq
hkjOPQQDAgNJADBGAiEAs6TNd1smUuP0B6+a43ZguFfwdM+kwzDLLYJcAYNmp/sC
IQCA2om2mbKyfb1KdqY14hiVdXS2HiFobKi5Z8Xl1ZcaXg==
-----END CERTIFICATE-----
`;

describe("readDeployment on the cloudtaser operator", () => {
  it("is rolled out: one replica updated, ready and available", () => {
    expect(readDeployment(fixture("deployment-cloudtaser-operator.json"))).toEqual({
      name: "cloudtaser-operator",
      namespace: "cloudtaser-system",
      replicas: 1,
      current: 1,
      available: 1,
      ready: 1,
      updated: 1,
      done: true,
      progressDeadlineExceeded: false,
      deleting: false,
      problems: [],
    });
  });

  it("is not done while the controller has not seen the new spec, or after the deadline", () => {
    const behind = fixture("deployment-cloudtaser-operator.json");
    behind.metadata.generation = 3;
    expect(readDeployment(behind).done).toBe(false);

    const stuck = fixture("deployment-cloudtaser-operator.json");
    stuck.spec.replicas = 2;
    stuck.status.conditions[1] = { type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded" };
    expect(readDeployment(stuck)).toMatchObject({ done: false, progressDeadlineExceeded: true, replicas: 2 });

    const surging = fixture("deployment-cloudtaser-operator.json");
    surging.status.replicas = 2;
    expect(readDeployment(surging).done).toBe(false);
  });
});

describe("readDaemonSet on the cloudtaser eBPF agent", () => {
  it("is not done: one of six pods unavailable", () => {
    expect(readDaemonSet(fixture("daemonset-cloudtaser-ebpf.json"))).toEqual({
      name: "cloudtaser-ebpf",
      namespace: "cloudtaser-system",
      desired: 6,
      current: 6,
      ready: 5,
      available: 5,
      unavailable: 1,
      updated: 6,
      misscheduled: 0,
      done: false,
      deleting: false,
      problems: [],
    });
  });
});

describe("readWebhookConfiguration on the cloudtaser injector", () => {
  const view = readWebhookConfiguration(fixture("mutatingwebhookconfiguration-cloudtaser.json"));

  it("reads the fail-closed pod webhook and its service", () => {
    expect(view.name).toBe("cloudtaser-operator-webhook");
    expect(view.webhooks).toEqual([
      {
        name: "inject.cloudtaser.io",
        failurePolicy: "Fail",
        timeoutSeconds: 10,
        service: { namespace: "cloudtaser-system", name: "cloudtaser-operator-webhook", port: 443, path: "/mutate-v1-pod" },
        caBundlePresent: true,
      },
    ]);
  });

  it("reports that the fixture's caBundle is a placeholder, not a certificate", () => {
    expect(view.webhooks[0].caNotAfter).toBeUndefined();
    expect(view.problems).toHaveLength(1);
    // The OpenSSL error code in brackets differs between OpenSSL builds.
    expect(describeReadProblem(view.problems[0])).toMatch(/^webhooks\[0\] \("inject\.cloudtaser\.io"\): certificate 1 of 1 is not a valid X\.509 certificate/);
  });

  it("reads notAfter from a real CA and applies the v1 defaults", () => {
    const config = fixture("mutatingwebhookconfiguration-cloudtaser.json");
    config.webhooks[0].clientConfig.caBundle = Buffer.from(REAL_CERT_PEM).toString("base64");
    delete config.webhooks[0].failurePolicy;
    delete config.webhooks[0].timeoutSeconds;
    const read = readWebhookConfiguration(config);
    expect(read.problems).toEqual([]);
    expect(read.webhooks[0]).toMatchObject({ failurePolicy: "Fail", timeoutSeconds: 10, caBundlePresent: true, caNotAfter: "2027-11-22T13:57:43.000Z" });
  });
});

describe("workload readers on bad input", () => {
  it("report non-objects and wrong kinds without throwing", () => {
    const notObject = readDeployment("cloudtaser-operator");
    expect({ ...notObject, problems: texts(notObject.problems) }).toMatchObject({ done: false, problems: ["Deployment is a string, not an object"] });
    expect(texts(readDaemonSet(fixture("deployment-cloudtaser-operator.json")).problems)).toEqual(['kind is "Deployment", expected "DaemonSet"']);
    const nothing = readWebhookConfiguration(undefined);
    expect({ ...nothing, problems: texts(nothing.problems) }).toEqual({ webhooks: [], problems: ["webhook configuration is nothing, not an object"] });
  });

  it("name mistyped status fields and bad webhooks", () => {
    const ds = fixture("daemonset-cloudtaser-ebpf.json");
    ds.status.numberAvailable = "6";
    const mistyped = readDaemonSet(ds);
    expect({ ...mistyped, problems: texts(mistyped.problems) }).toMatchObject({
      done: false,
      problems: ["status.numberAvailable: Invalid input: expected number, received string"],
    });

    const config = fixture("mutatingwebhookconfiguration-cloudtaser.json");
    config.webhooks.push({ ...config.webhooks[0], name: "second.cloudtaser.io", failurePolicy: "Sometimes" });
    config.webhooks.push({ name: "third.cloudtaser.io", clientConfig: { caBundle: "not base64!" } });
    const read = readWebhookConfiguration(config);
    expect(read.webhooks.map((w) => w.name)).toEqual(["inject.cloudtaser.io", "third.cloudtaser.io"]);
    expect(texts(read.problems.slice(1))).toEqual([
      'webhooks[1] ("second.cloudtaser.io") skipped: failurePolicy "Sometimes" is not Fail or Ignore',
      'webhooks[2] ("third.cloudtaser.io"): clientConfig has neither service nor url',
      'webhooks[2] ("third.cloudtaser.io"): caBundle is not valid base64',
    ]);
  });
});
