import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOpenBaoHealth, parseTransitKey } from "./parse-openbao";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures", name), "utf8");
const body = (name: string) => JSON.parse(fixture(name));

describe("parseOpenBaoHealth with the fixture status codes", () => {
  it("200 is active, with the cluster's name", () => {
    expect(parseOpenBaoHealth(200, body("openbao-health-active-200.json"))).toEqual({
      state: "active",
      httpStatus: 200,
      initialized: true,
      sealed: false,
      standby: false,
      replicationPerformanceMode: "disabled",
      replicationDrMode: "disabled",
      version: "2.6.2",
      clusterName: "vault-cluster-5d1e8f3a",
      clusterId: "7a2c4e1b-9f0d-3b6e-c8a5-1d2e3f4a5b6c",
      serverTimeUtc: 1787220900,
    });
  });

  it("429 is standby", () => {
    const health = parseOpenBaoHealth(429, body("openbao-health-standby-429.json"));
    expect(health).toMatchObject({ state: "standby", standby: true, sealed: false });
    expect(health.problem).toBeUndefined();
  });

  it("503 is sealed: standby true, no cluster name, replication unknown", () => {
    const health = parseOpenBaoHealth(503, fixture("openbao-health-sealed-503.json"));
    expect(health).toMatchObject({ state: "sealed", sealed: true, standby: true, replicationDrMode: "unknown" });
    expect(health.clusterName).toBeUndefined();
    expect(health.problem).toBeUndefined();
  });

  it("501 is uninitialized", () => {
    expect(parseOpenBaoHealth(501, body("openbao-health-uninitialized-501.json"))).toMatchObject({
      state: "uninitialized",
      initialized: false,
    });
  });

  it("472 and 473 are read but flagged as Vault Enterprise only", () => {
    const dr = parseOpenBaoHealth(472, body("vault-ent-health-dr-secondary-472.json"));
    expect(dr).toMatchObject({ state: "dr-secondary", replicationDrMode: "secondary", version: "1.19.2+ent" });
    expect(dr.note).toBe("Vault Enterprise only: OpenBao never returns 472 or 473");
    const perf = parseOpenBaoHealth(473, body("vault-ent-health-perf-standby-473.json"));
    expect(perf).toMatchObject({ state: "perf-standby", performanceStandby: true });
    expect(perf.note).toContain("Vault Enterprise only");
    expect(perf.problem).toBeUndefined();
  });
});

describe("parseOpenBaoHealth when code and body disagree or are missing", () => {
  it("flags a 200 whose body is sealed", () => {
    const health = parseOpenBaoHealth(200, body("openbao-health-sealed-503.json"));
    expect(health.state).toBe("active");
    expect(health.problem).toBe("HTTP 200 means active but the body describes a sealed node (status code overridden?)");
  });

  it("reads a 200 standby as standby (standbyok)", () => {
    const health = parseOpenBaoHealth(200, body("openbao-health-standby-429.json"));
    expect(health.state).toBe("standby");
    expect(health.note).toBe("HTTP 200 from a standby: the request asked for standbyok");
  });

  it("takes the state from the body for an overridden code", () => {
    const health = parseOpenBaoHealth(299, body("openbao-health-sealed-503.json"));
    expect(health.state).toBe("sealed");
    expect(health.note).toContain("HTTP 299 is not a default sys/health code");
  });

  it("reads a HEAD response (no body) from its code alone", () => {
    expect(parseOpenBaoHealth(503, undefined)).toEqual({
      state: "sealed",
      httpStatus: 503,
      note: "no body (a HEAD request returns only the status code)",
    });
  });

  it("reports a 500 error body, a truncated body and a body that is not an object", () => {
    expect(parseOpenBaoHealth(500, { errors: ["internal error"] })).toEqual({
      state: "unexpected",
      httpStatus: 500,
      problem: 'server returned errors: "internal error"; HTTP 500 is not a sys/health status code and the body does not say what the node is',
    });
    expect(parseOpenBaoHealth(200, '{"initialized":true,"sea').problem).toBe("body: invalid JSON: input ends early after 24 characters (truncated?)");
    expect(parseOpenBaoHealth(200, [1]).problem).toBe("body is an array, not an object");
    expect(parseOpenBaoHealth(200, { sealed: "no" }).problem).toBe("sealed is a string, not a boolean");
  });
});

describe("parseTransitKey", () => {
  it("reads the k8s-kek: not deletable, three versions, decrypt from 1", () => {
    expect(parseTransitKey(body("openbao-transit-key-read.json"))).toEqual({
      kind: "transit-key",
      name: "k8s-kek",
      type: "aes256-gcm96",
      deletionAllowed: false,
      minDecryptionVersion: 1,
      minEncryptionVersion: 0,
      minAvailableVersion: 0,
      latestVersion: 3,
      versions: [1, 2, 3],
      decryptableVersions: [1, 2, 3],
      autoRotatePeriodSeconds: 0,
      exportable: false,
      softDeleted: false,
      problems: [],
    });
  });

  it("sorts versions numerically and notes an inconsistent latest_version", () => {
    const envelope = body("openbao-transit-key-read.json");
    envelope.data.keys = { "10": 1787144402, "9": 1784026811 };
    envelope.data.min_decryption_version = 10;
    const key = parseTransitKey(JSON.stringify(envelope));
    expect(key).toMatchObject({ kind: "transit-key", versions: [9, 10], decryptableVersions: [10] });
    if (key.kind !== "transit-key") return;
    expect(key.problems).toEqual(["latest_version is 3 but the newest version in keys is 10", "min_decryption_version 10 is above latest_version 3"]);
  });

  it("never returns wrap_info or auth, which can carry tokens", () => {
    const envelope = body("openbao-transit-key-read.json");
    envelope.wrap_info = { token: "s.wrappingtoken123" };
    envelope.auth = { client_token: "s.clienttoken456" };
    expect(JSON.stringify(parseTransitKey(envelope))).not.toMatch(/token/);
  });

  it("says what is wrong with a bad envelope", () => {
    const missing = body("openbao-transit-key-read.json");
    delete missing.data.deletion_allowed;
    missing.data.latest_version = "3";
    expect(parseTransitKey(missing)).toEqual({
      kind: "problem",
      failure: "malformed",
      problem: "transit key data is invalid: data.deletion_allowed is missing; data.latest_version: Invalid input: expected number, received string",
    });
    expect(parseTransitKey({ errors: [] })).toEqual({
      kind: "problem",
      failure: "read-failed",
      problem: "transit key read failed: no such key (empty errors list)",
    });
    expect(parseTransitKey({ errors: ["permission denied"] })).toEqual({
      kind: "problem",
      failure: "read-failed",
      problem: 'transit key read failed: "permission denied"',
    });
    expect(parseTransitKey("k8s-kek")).toEqual({ kind: "problem", failure: "malformed", problem: 'transit key response: invalid JSON: unexpected "k"' });
    expect(parseTransitKey({ data: null })).toEqual({
      kind: "problem",
      failure: "malformed",
      problem: "transit key response has no data object (data is null)",
    });
  });
});
