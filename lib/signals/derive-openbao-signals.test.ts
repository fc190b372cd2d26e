import { describe, expect, it } from "vitest";
import { fixtureText } from "@/test/fixture-files";
import { parseOpenBaoHealth, parseTransitKey } from "@/lib/sources/probes/parse-openbao";
import { deriveSignals, type Signal } from "./signals";

const text = fixtureText;
const NOW = new Date("2026-08-20T10:15:00Z");
const summary = (signals: Signal[]) => Object.fromEntries(signals.map((s) => [s.id, s.state]));
const openbao = (code: number, file: string) => deriveSignals({ now: NOW, openbao: parseOpenBaoHealth(code, text(file)) });

function transitKey(edit: (data: Record<string, unknown>) => void = () => undefined) {
  const envelope = JSON.parse(text("openbao-transit-key-read.json"));
  edit(envelope.data);
  const key = parseTransitKey(envelope);
  if (key.kind !== "transit-key") throw new Error(key.problem);
  return key;
}

describe("deriveSignals from OpenBao sys/health fixtures", () => {
  it("503 sealed is critical, with the body as evidence", () => {
    const signals = openbao(503, "openbao-health-sealed-503.json");
    expect(summary(signals)).toEqual({
      "openbao.unreachable": "ok",
      "openbao.sealed": "critical",
      "openbao.uninitialized": "ok",
      "openbao.standby": "ok",
    });
    // Sealed says it all: a standby check that went unknown opened its own "answering as standby" incident.
    expect(signals.find((s) => s.id === "openbao.standby")?.detail).toBe("sealed (HTTP 503): standby does not apply");
    const sealed = signals.find((s) => s.id === "openbao.sealed");
    expect(sealed).toMatchObject({ subject: "openbao", detail: "sealed (HTTP 503): every KMS encrypt and decrypt fails until it is unsealed" });
    expect(sealed?.evidence).toMatchObject({ state: "sealed", httpStatus: 503, sealed: true, version: "2.6.2" });
  });

  it("200 active is all ok, 429 standby a warning, 501 uninitialized critical", () => {
    expect(summary(openbao(200, "openbao-health-active-200.json"))).toEqual({
      "openbao.unreachable": "ok",
      "openbao.sealed": "ok",
      "openbao.uninitialized": "ok",
      "openbao.standby": "ok",
    });
    expect(summary(openbao(429, "openbao-health-standby-429.json"))).toMatchObject({ "openbao.standby": "warning", "openbao.sealed": "ok" });
    expect(summary(openbao(501, "openbao-health-uninitialized-501.json"))).toEqual({
      "openbao.unreachable": "ok",
      "openbao.sealed": "ok",
      "openbao.uninitialized": "critical",
      "openbao.standby": "ok",
    });
    expect(openbao(501, "openbao-health-uninitialized-501.json").find((s) => s.id === "openbao.sealed")?.detail).toBe(
      "uninitialized (HTTP 501): sealed does not apply",
    );
  });

  it("an unreachable endpoint is critical and leaves the other checks unknown", () => {
    const signals = deriveSignals({ now: NOW, openbao: { unreachable: true, error: "connect ECONNREFUSED 10.0.0.7:8200" } });
    expect(summary(signals)).toEqual({
      "openbao.unreachable": "critical",
      "openbao.sealed": "unknown",
      "openbao.uninitialized": "unknown",
      "openbao.standby": "unknown",
    });
    expect(signals[0].detail).toBe("health endpoint unreachable: connect ECONNREFUSED 10.0.0.7:8200");
  });

  it("an unexpected status or a DR secondary counts as unreachable", () => {
    expect(summary(deriveSignals({ now: NOW, openbao: parseOpenBaoHealth(502, "<html>Bad Gateway</html>") }))).toMatchObject({
      "openbao.unreachable": "critical",
      "openbao.sealed": "unknown",
    });
    expect(summary(openbao(472, "vault-ent-health-dr-secondary-472.json"))).toMatchObject({ "openbao.unreachable": "critical", "openbao.standby": "ok" });
  });
});

describe("deriveSignals from the Transit key fixture", () => {
  it("is fine as shipped: readable, deletion not allowed, versions 1 and 3 still decryptable", () => {
    const signals = deriveSignals({ now: NOW, transit: { ...transitKey(), versionsInUse: [3, 1, 1] } });
    expect(signals.map((s) => [s.id, s.subject, s.state])).toEqual([
      ["transit.key.missing", "transit/k8s-kek", "ok"],
      ["transit.key.deletion-allowed", "transit/k8s-kek", "ok"],
      ["transit.key.min-decryption-raised", "transit/k8s-kek", "ok"],
    ]);
    expect(signals[2].detail).toBe("min_decryption_version 1 is at or below every version in use (1, 3)");
  });

  it("skips the min_decryption_version check when nobody said which versions are in use", () => {
    expect(deriveSignals({ now: NOW, transit: transitKey() }).map((s) => s.id)).toEqual(["transit.key.missing", "transit.key.deletion-allowed"]);
  });

  it("is critical when deletion is allowed", () => {
    const signals = deriveSignals({ now: NOW, transit: transitKey((d) => (d.deletion_allowed = true)) });
    expect(signals[1]).toMatchObject({ id: "transit.key.deletion-allowed", state: "critical" });
  });

  it("is critical when min_decryption_version passes a version stored data needs", () => {
    const signals = deriveSignals({ now: NOW, transit: { ...transitKey((d) => (d.min_decryption_version = 2)), versionsInUse: [1, 3] } });
    expect(signals[2]).toMatchObject({
      id: "transit.key.min-decryption-raised",
      state: "critical",
      detail: "min_decryption_version 2 is above version 1 that stored data still needs, so those decrypts fail",
    });
  });

  it("is critical when a needed version is gone from the key", () => {
    const signals = deriveSignals({ now: NOW, transit: { ...transitKey(), versionsInUse: [4] } });
    expect(signals[2]).toMatchObject({ state: "critical", detail: "version 4 is no longer in the key" });
  });

  it("is missing when the key cannot be read, and missing when soft-deleted", () => {
    const read = parseTransitKey({ errors: ['no handler for route "transit/keys/k8s-kek"'] });
    const signals = deriveSignals({ now: NOW, transit: read.kind === "problem" ? { ...read, name: "k8s-kek" } : read });
    expect(summary(signals)).toEqual({
      "transit.key.missing": "critical",
      "transit.key.deletion-allowed": "unknown",
      "transit.key.min-decryption-raised": "unknown",
    });
    expect(signals[0]).toMatchObject({ subject: "transit/k8s-kek", detail: 'transit key read failed: "no handler for route \\"transit/keys/k8s-kek\\""' });
    expect(deriveSignals({ now: NOW, transit: transitKey((d) => (d.soft_deleted = true)) })[0]).toMatchObject({ id: "transit.key.missing", state: "critical" });
  });
});
