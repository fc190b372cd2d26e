import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

// Self-contained on purpose: the catalog loader (lib/diagnosis/classify.ts) is written separately,
// so this test reads the YAML with its own minimal shape checks and judges the content alone.
type Example = { text: string; from: string; alsoMatches: string[] };
type ErrorClass = { id: string; title: string; generic: boolean; match: string[]; examples: Example[]; notMatch: string[] };

const file = path.join(import.meta.dirname, "../../catalog/error-classes.yaml");

function asStrings(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new Error(`${where} must be a list of strings`);
  return value;
}

function loadClasses(): ErrorClass[] {
  const raw: unknown = parse(readFileSync(file, "utf8"));
  if (!Array.isArray(raw)) throw new Error("error-classes.yaml must be a list");
  return raw.map((entry: Record<string, unknown>, i) => {
    const where = `entry ${i} (${String(entry.id)})`;
    if (typeof entry.id !== "string" || typeof entry.title !== "string") throw new Error(`${where}: id and title are required strings`);
    if (!Array.isArray(entry.examples)) throw new Error(`${where}: examples must be a list`);
    return {
      id: entry.id,
      title: entry.title,
      generic: entry.generic === true,
      match: asStrings(entry.match, `${where}.match`),
      notMatch: asStrings(entry.notMatch, `${where}.notMatch`),
      examples: entry.examples.map((ex: Record<string, unknown>, j: number) => {
        if (typeof ex.text !== "string" || typeof ex.from !== "string") throw new Error(`${where}.examples[${j}]: text and from are required`);
        return { text: ex.text, from: ex.from, alsoMatches: asStrings(ex.alsoMatches, `${where}.examples[${j}].alsoMatches`) };
      }),
    };
  });
}

// The diagnosis applies patterns as JavaScript regexps, case-insensitively; one that fails to compile is reported by its own test.
function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "i");
  } catch {
    return undefined;
  }
}

const matches = (c: ErrorClass, text: string) => c.match.some((p) => compile(p)?.test(text) === true);

describe("catalog/error-classes.yaml", () => {
  const classes = loadClasses();
  const ids = new Set(classes.map((c) => c.id));

  it("has unique lowercase slug ids and enough classes to tell neighbours apart", () => {
    expect(ids.size).toBe(classes.length);
    for (const c of classes) expect(c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(classes.length).toBeGreaterThanOrEqual(35);
  });

  it("gives every class at least one pattern and two sourced examples", () => {
    for (const c of classes) {
      expect(c.match.length, c.id).toBeGreaterThan(0);
      expect(c.examples.length, c.id).toBeGreaterThanOrEqual(2);
      for (const ex of c.examples) expect(ex.from.trim().length, `${c.id}: ${ex.text}`).toBeGreaterThan(0);
    }
  });

  it("compiles every pattern as a JavaScript regular expression", () => {
    const broken = classes.flatMap((c) => c.match.filter((p) => compile(p) === undefined).map((p) => `${c.id}: ${p}`));
    expect(broken).toEqual([]);
  });

  it("matches every example with its own class", () => {
    const misses = classes.flatMap((c) => c.examples.filter((ex) => !matches(c, ex.text)).map((ex) => `${c.id}: ${ex.text}`));
    expect(misses).toEqual([]);
  });

  it("does not let an example of a specific class match another specific class unless it says so", () => {
    const specific = classes.filter((c) => !c.generic);
    const stray: string[] = [];
    for (const c of specific) {
      for (const ex of c.examples) {
        for (const other of specific) {
          if (other.id !== c.id && matches(other, ex.text) && !ex.alsoMatches.includes(other.id))
            stray.push(`${c.id} example also matches ${other.id}: ${ex.text}`);
        }
      }
    }
    expect(stray).toEqual([]);
  });

  it("lists in alsoMatches only classes that exist and really match", () => {
    for (const c of classes) {
      for (const ex of c.examples) {
        for (const id of ex.alsoMatches) {
          const other = classes.find((o) => o.id === id);
          expect(other, `${c.id}: unknown alsoMatches id ${id}`).toBeDefined();
          expect(matches(other!, ex.text), `${c.id}: ${id} does not match ${ex.text}`).toBe(true);
        }
      }
    }
  });

  it("does not match any of a class's notMatch neighbours", () => {
    const wrong = classes.flatMap((c) => c.notMatch.filter((text) => matches(c, text)).map((text) => `${c.id}: ${text}`));
    expect(wrong).toEqual([]);
  });

  it("keeps neighbours that share words apart (socket vs token file vs OpenBao 403)", () => {
    const byId = (id: string) => classes.find((c) => c.id === id)!;
    const hits = (text: string) => classes.filter((c) => !c.generic && matches(c, text)).map((c) => c.id);
    expect(hits("dial unix /run/openbao-kms/kms.sock: connect: no such file or directory")).toEqual(["socket-missing"]);
    expect(hits("open /var/run/secrets/tokens/openbao-token: no such file or directory")).toEqual(["token-file-missing"]);
    expect(hits("dial unix /run/openbao-kms/kms.sock: connect: permission denied")).toEqual(["socket-permission-denied"]);
    expect(matches(byId("openbao-permission-denied"), "dial unix /run/openbao-kms/kms.sock: connect: permission denied")).toBe(false);
    expect(hits('{"initialized":true,"sealed":true,"standby":true}')).toEqual(["openbao-sealed"]);
    expect(hits('{"initialized":true,"sealed":false,"standby":true}')).toEqual(["openbao-standby"]);
  });

  // Texts found by reading the real sources whose wording sits next to an older class: each must land in the class naming its cause.
  it("tells the newer real wordings from the neighbours that share their words", () => {
    const hits = (text: string) => classes.filter((c) => !c.generic && matches(c, text)).map((c) => c.id);
    // A certificate file with loose permissions is a permissions problem, not a bad certificate.
    expect(hits("certificate read failed: certificate file permissions are too broad")).toEqual(["config-unsafe-permissions"]);
    expect(hits("certificate usage invalid: client auth EKU is required")).toEqual(["client-certificate-invalid"]);
    // OpenBao's three version refusals name three different causes.
    expect(hits("requested version for encryption is higher than the latest key version")).toEqual(["transit-encrypt-version-rejected"]);
    expect(hits("ciphertext or signature version is disallowed by policy (too old)")).toEqual(["transit-version-too-old"]);
    expect(hits("key version does not exist; latest key version is 3")).toEqual(["transit-invalid-key-version"]);
    // A health port held by another process is not the KMS socket held by a live peer.
    expect(hits("bind health listener: listen tcp 127.0.0.1:8081: bind: address already in use")).toEqual(["health-port-in-use"]);
    expect(hits("listen unix /run/openbao-kms/kms.sock: bind: address already in use")).toEqual(["socket-in-use"]);
    // A failed SVID fetch is the Workload API, not a configuration mistake.
    expect(hits("auth config invalid: get spiffe x509 svid")).toEqual(["spiffe-workload-api"]);
    expect(hits("jwt malformed: exp claim is required")).toEqual(["jwt-malformed"]);
    expect(hits("no audit backend succeeded in logging the request")).toEqual(["openbao-audit-failed"]);
    expect(hits("OOMKilled")).toEqual(["container-oom-killed"]);
    // A recreated Transit key reads as malformed metadata to the plugin; it must not be taken for an unusable key setting.
    expect(hits("transit metadata invalid: active Transit version creation time changed (persisted_unix=1790000000 observed_unix=1790086400)")).toEqual([
      "transit-key-recreated",
    ]);
    expect(hits("status config invalid: persisted state provider name differs from current configuration")).toContain("plugin-identity-config-changed");
  });
});
