import { describe, expect, it } from "vitest";
import { HIDDEN, hideSecrets } from "./secrets";

describe("hideSecrets: no secret value reaches the page", () => {
  it.each([
    ["an OpenBao service token", "login ok, token hvs.CAESIJ7mXq3kzQ2b8Yd0pLr6WnT4gH5sVxA1cE9uF0oKiZ3a issued", "hvs.CAES"],
    ["an older Vault token", "X-Vault-Token: s.Zq8yWb3nK1mT6vR0pL4hD9cF", "s.Zq8y"],
    ["a JSON Web Token", "jwt=eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJlLWJ5dGVz", "eyJhbGci"],
    ["a bearer header", "Authorization: Bearer 4f2c9a7e1b3d5f60aa11bb22", "4f2c9a7e"],
    ["a secret_id", 'approle login with secret_id="6a1f3c2e-8b4d-4e7f-9a0b-1c2d3e4f5a6b"', "6a1f3c2e"],
    ["a password", "password=hunter2hunter2", "hunter2"],
    ["a Secret's data", "data:\n  password: cGFzc3dvcmQtdGhhdC1pcy1sb25nLWVub3VnaC10by1oaWRlLWl0Cg==", "cGFzc3dvcmQt"],
    ["a private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA7"],
  ])("hides %s", (_what, text, secret) => {
    const { text: out, hidden } = hideSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(HIDDEN);
    expect(hidden).toBeGreaterThan(0);
  });

  it.each([
    "failed to renew token: permission denied",
    'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/openbao-kms/kms.sock: connect: connection refused"',
    "Code: 503. Errors:\n\n* Vault is sealed",
    'openbao_kms_aad_validation_errors_total{reason="aad_mismatch"} +3 in 15m',
    "[fail] transit.key: Transit key kubernetes-kms - key not found",
    "token_ttl_seconds 120",
  ])("keeps the words of an error: %s", (text) => {
    expect(hideSecrets(text)).toEqual({ text, hidden: 0 });
  });
});
