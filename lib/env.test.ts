import { describe, expect, it } from "vitest";
import { DEFAULT_RULES_CONFIG } from "./incident-rules-config";
import { EnvError, parseEnv } from "./env";

describe("environment", () => {
  it("defaults to loopback, port 3000 and the embedded database", () => {
    expect(parseEnv({})).toEqual({
      HOST: "127.0.0.1",
      PORT: 3000,
      FAULTLINE_DATA_DIR: ".data",
      FAULTLINE_ALLOWED_HOSTS: [],
      FAULTLINE_DEMO: "on",
      FAULTLINE_DEMO_PROMETHEUS: "on",
      FAULTLINE_DEMO_NODES: 3,
      FAULTLINE_DEMO_INTERVAL_SECONDS: 30,
      FAULTLINE_DEMO_BOOKMARK_SECONDS: 60,
      FAULTLINE_POLL_SECONDS: 2,
      FAULTLINE_INCIDENT_RULES: DEFAULT_RULES_CONFIG,
    });
  });

  it("reads the incident rules as JSON, fills the defaults, and names a bad field", () => {
    expect(parseEnv({ FAULTLINE_INCIDENT_RULES: '{"openAfterObservations":2,"resolveAfterSeconds":5}' }).FAULTLINE_INCIDENT_RULES).toEqual({
      ...DEFAULT_RULES_CONFIG,
      openAfterObservations: 2,
      resolveAfterSeconds: 5,
    });
    expect(() => parseEnv({ FAULTLINE_INCIDENT_RULES: "{oops" })).toThrow(
      /^Invalid environment variable FAULTLINE_INCIDENT_RULES \(got "\{oops"\): must be a JSON object/,
    );
    expect(() => parseEnv({ FAULTLINE_INCIDENT_RULES: '{"openAfterObservations":0}' })).toThrow(/FAULTLINE_INCIDENT_RULES .*openAfterObservations: /);
    expect(() => parseEnv({ FAULTLINE_INCIDENT_RULES: '{"openAfterObservation":2}' })).toThrow(/FAULTLINE_INCIDENT_RULES .*openAfterObservation/);
  });

  it("reads the allowed Host names and names an entry that is none", () => {
    expect(parseEnv({ FAULTLINE_ALLOWED_HOSTS: "faultline.internal, 127.0.0.1:8443,[::1],https://faultline.example.com" }).FAULTLINE_ALLOWED_HOSTS).toEqual([
      "faultline.internal",
      "127.0.0.1:8443",
      "[::1]",
      "https://faultline.example.com",
    ]);
    for (const bad of ["faultline internal", "ftp://faultline.internal", "https://faultline.internal/", "a,,b", "host:99999", "*.example"]) {
      expect(() => parseEnv({ FAULTLINE_ALLOWED_HOSTS: bad })).toThrow(
        /^Invalid environment variable FAULTLINE_ALLOWED_HOSTS \(got ".*"\): ".*" is not a host name/,
      );
    }
  });

  it("takes machine tokens of 16 printable characters or more and never shows one in the error", () => {
    expect(parseEnv({ FAULTLINE_WEBHOOK_TOKEN: "0123456789abcdef" }).FAULTLINE_WEBHOOK_TOKEN).toBe("0123456789abcdef");
    for (const [token, why] of [
      ["short-secret", /at least 16 characters/],
      ["has a space in the middle", /without spaces/],
    ] as const) {
      for (const name of ["FAULTLINE_WEBHOOK_TOKEN", "FAULTLINE_METRICS_TOKEN"]) {
        let message = "";
        try {
          parseEnv({ [name]: token });
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
        expect(message).toMatch(why);
        expect(message).not.toContain(token);
      }
    }
  });

  it("refuses a non-loopback bind address with one line naming the variable", () => {
    for (const host of ["0.0.0.0", "192.0.2.10", "::", "example.org"]) {
      expect(() => parseEnv({ HOST: host })).toThrow(EnvError);
      try {
        parseEnv({ HOST: host });
      } catch (error) {
        const message = (error as Error).message;
        expect(message).toMatch(/^Invalid environment variable HOST \(got "[^"]+"\): binding a non-loopback address is refused/);
        expect(message).not.toContain("\n");
      }
    }
  });

  it("accepts every loopback spelling", () => {
    for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"]) expect(parseEnv({ HOST: host }).HOST).toBe(host);
  });

  it("says what a port must be", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/^Invalid environment variable PORT \(got "eighty"\): must be a port number/);
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT.*must be 1-65535/);
  });

  it("rejects a database URL of another kind without echoing it (it may hold a password)", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://user:secret@db/x" })).toThrow(
      /^Invalid environment variable DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    );
  });

  it("bounds the demo cluster's size", () => {
    expect(() => parseEnv({ FAULTLINE_DEMO_NODES: "6000" })).toThrow(/^Invalid environment variable FAULTLINE_DEMO_NODES \(got "6000"\): must be 1-5000$/);
  });

  it("treats an empty variable as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it("lists the allowed values of an enumeration", () => {
    expect(() => parseEnv({ FAULTLINE_DEMO: "loud" })).toThrow(/^Invalid environment variable FAULTLINE_DEMO \(got "loud"\): .*"on"\|"off"/);
  });
});
