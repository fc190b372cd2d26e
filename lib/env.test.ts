import { describe, expect, it } from "vitest";
import { DEFAULT_RULES_CONFIG } from "./incident-rules-config";
import { DEFAULT_NOTIFY_RETRY } from "./notify-config";
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
      FAULTLINE_AUTH: "none",
      FAULTLINE_PROXY_USER_HEADER: "X-Forwarded-User",
      FAULTLINE_PROXY_EMAIL_HEADER: "X-Forwarded-Email",
      FAULTLINE_PROXY_GROUPS_HEADER: "X-Forwarded-Groups",
      FAULTLINE_OIDC_GROUPS_CLAIM: "groups",
      FAULTLINE_NOTIFY_WEBHOOKS: [],
      FAULTLINE_NOTIFY_RETRY: DEFAULT_NOTIFY_RETRY,
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
        expect(message).toMatch(/^Invalid environment variable HOST \(got "[^"]+"\): binding a non-loopback address is refused while FAULTLINE_AUTH=none/);
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

  const groups = '{"admin":["sre-leads"],"responder":["sre"],"viewer":["*"]}';

  it("binds a non-loopback address once people sign in through a proxy or OIDC", () => {
    const proxy = parseEnv({ HOST: "0.0.0.0", FAULTLINE_AUTH: "proxy", FAULTLINE_ROLE_GROUPS: groups, FAULTLINE_PROXY_SOURCES: "10.0.0.0/8, 127.0.0.1" });
    expect(proxy.HOST).toBe("0.0.0.0");
    expect(proxy.FAULTLINE_ROLE_GROUPS).toEqual({ admin: ["sre-leads"], responder: ["sre"], viewer: ["*"] });
    expect(proxy.FAULTLINE_PROXY_SOURCES).toEqual([
      { address: "10.0.0.0", prefix: 8, family: "ipv4" },
      { address: "127.0.0.1", prefix: 32, family: "ipv4" },
    ]);
    const oidc = {
      HOST: "::",
      FAULTLINE_AUTH: "oidc",
      FAULTLINE_ROLE_GROUPS: groups,
      FAULTLINE_OIDC_ISSUER: "https://sso.example.org/realms/sre",
      FAULTLINE_OIDC_CLIENT_ID: "faultline",
      FAULTLINE_OIDC_CLIENT_SECRET: "s3cret-value",
      FAULTLINE_OIDC_REDIRECT_URL: "https://faultline.example.org/auth/callback",
    };
    expect(parseEnv(oidc).HOST).toBe("::");
    // The client secret is never echoed, even when refused.
    expect(() => parseEnv({ ...oidc, FAULTLINE_OIDC_CLIENT_SECRET: "x".repeat(2000) })).toThrow(/^Invalid environment variable FAULTLINE_OIDC_CLIENT_SECRET: /);
    expect(() => parseEnv({ ...oidc, FAULTLINE_OIDC_CLIENT_SECRET: "x".repeat(2000) })).not.toThrow(/xxxx/);
  });

  it("names what a mode is missing, and refuses a bad mode, mapping or range", () => {
    expect(() => parseEnv({ FAULTLINE_AUTH: "ldap" })).toThrow(/^Invalid environment variable FAULTLINE_AUTH \(got "ldap"\): must be none, proxy or oidc/);
    expect(() => parseEnv({ FAULTLINE_AUTH: "proxy", FAULTLINE_PROXY_SOURCES: "127.0.0.1" })).toThrow(
      /FAULTLINE_ROLE_GROUPS: is required with FAULTLINE_AUTH=proxy/,
    );
    expect(() => parseEnv({ FAULTLINE_AUTH: "proxy", FAULTLINE_ROLE_GROUPS: groups })).toThrow(
      /FAULTLINE_PROXY_SOURCES: is required with FAULTLINE_AUTH=proxy/,
    );
    expect(() => parseEnv({ FAULTLINE_AUTH: "oidc", FAULTLINE_ROLE_GROUPS: groups })).toThrow(/FAULTLINE_OIDC_ISSUER: is required with FAULTLINE_AUTH=oidc/);
    expect(() => parseEnv({ FAULTLINE_ROLE_GROUPS: '{"owner":["x"]}' })).toThrow(/FAULTLINE_ROLE_GROUPS .*owner/);
    expect(() => parseEnv({ FAULTLINE_ROLE_GROUPS: "sre-leads" })).toThrow(/FAULTLINE_ROLE_GROUPS .*must be a JSON object/);
    expect(() => parseEnv({ FAULTLINE_PROXY_SOURCES: "10.0.0.0/33" })).toThrow(/FAULTLINE_PROXY_SOURCES .*prefix length must be 0-32/);
    expect(() => parseEnv({ FAULTLINE_PROXY_SOURCES: "proxy.internal" })).toThrow(/FAULTLINE_PROXY_SOURCES .*is not an address or CIDR range/);
    expect(() => parseEnv({ FAULTLINE_OIDC_ISSUER: "http://sso.example.org" })).toThrow(/FAULTLINE_OIDC_ISSUER .*https:/);
  });

  it("reads notification receivers, fills each bearer token from the variable it names, and names a bad field without echoing URLs or tokens", () => {
    const hooks = JSON.stringify([
      { name: "pager", url: "https://hooks.example.org/x", tokenEnv: "PAGER_TOKEN", events: ["opened", "resolved"] },
      { name: "chat", url: "https://hooks.slack.com/services/T0/B0/secretpart", format: "slack" },
    ]);
    const env = parseEnv({ FAULTLINE_NOTIFY_WEBHOOKS: hooks, PAGER_TOKEN: "tok-123", FAULTLINE_PUBLIC_URL: "https://faultline.example.org/" });
    expect(env.FAULTLINE_NOTIFY_WEBHOOKS).toEqual([
      {
        name: "pager",
        url: "https://hooks.example.org/x",
        tokenEnv: "PAGER_TOKEN",
        events: ["opened", "resolved"],
        format: "json",
        timeoutSeconds: 10,
        token: "tok-123",
      },
      { name: "chat", url: "https://hooks.slack.com/services/T0/B0/secretpart", format: "slack", timeoutSeconds: 10 },
    ]);
    expect(env.FAULTLINE_PUBLIC_URL).toBe("https://faultline.example.org");
    const refusal = (vars: Record<string, string>) => {
      try {
        parseEnv(vars);
      } catch (error) {
        expect(error).toBeInstanceOf(EnvError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    const secretUrl = "ftp://hooks.slack.com/services/T0/B0/secretpart";
    const bad = refusal({ FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify([{ name: "chat", url: secretUrl }]) });
    expect(bad).toBe(
      "Invalid environment variable FAULTLINE_NOTIFY_WEBHOOKS: 0.url: must be an http:// or https:// URL without user:password@ (a bearer token goes in tokenEnv)",
    );
    expect(refusal({ FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify([{ name: "a", url: "https://x.example", format: "teams" }]) })).toMatch(
      /: 0\.format: must be json or slack$/,
    );
    expect(refusal({ FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify([{ name: "a", url: "https://x.example", events: ["paged"] }]) })).toMatch(
      /: 0\.events\.0: must be one of opened/,
    );
    expect(refusal({ FAULTLINE_NOTIFY_WEBHOOKS: "[{" })).toMatch(/FAULTLINE_NOTIFY_WEBHOOKS: must be JSON such as/);
    expect(refusal({ FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify([{ name: "a", url: "https://x.example", tokenEnv: "NOPE" }]) })).toBe(
      'Invalid environment variable FAULTLINE_NOTIFY_WEBHOOKS: receiver "a": tokenEnv NOPE is not set',
    );
    expect(refusal({ FAULTLINE_NOTIFY_WEBHOOKS: JSON.stringify([{ name: "a", url: "https://x.example", tokenEnv: "T" }]), T: "has space" })).not.toContain(
      "has space",
    );
    expect(refusal({ FAULTLINE_NOTIFY_RETRY: '{"maxAttempts":0}' })).toMatch(/FAULTLINE_NOTIFY_RETRY .*maxAttempts/);
    expect(refusal({ FAULTLINE_PUBLIC_URL: "javascript:alert(1)" })).toMatch(/^Invalid environment variable FAULTLINE_PUBLIC_URL/);
  });
});
