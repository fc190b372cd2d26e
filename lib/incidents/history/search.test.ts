import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";
import { MAX_TERMS, parseSearch } from "./search";

describe("parseSearch", () => {
  it("makes words prefixes, punctuated words one joined prefix, quoted words a phrase", () => {
    expect(parseSearch('Seal node-1/kms-a "Kube-APIServer kms-providers"')).toEqual([
      [
        { kind: "prefix", words: "seal", exclude: false },
        { kind: "prefix", words: "node1kmsa", exclude: false },
        { kind: "phrase", words: "kube apiserver kms providers", joined: ["kubeapiserver", "kmsproviders"], exclude: false },
      ],
    ]);
  });

  it("reads -word as an exclusion and `or` as either side; a group of exclusions alone is dropped", () => {
    expect(parseSearch("sealed -transit or unreachable")).toEqual([
      [
        { kind: "prefix", words: "sealed", exclude: false },
        { kind: "prefix", words: "transit", exclude: true },
      ],
      [{ kind: "prefix", words: "unreachable", exclude: false }],
    ]);
    expect(parseSearch("-sealed")).toEqual([]);
    expect(parseSearch("or or sealed or")).toEqual([[{ kind: "prefix", words: "sealed", exclude: false }]]);
  });

  it("keeps nothing of operators and punctuation alone, and at most 16 terms", () => {
    expect(parseSearch(`& | ! :* () '' "" <-> \\ \u0000`)).toEqual([]);
    expect(parseSearch("a' & b:*")).toEqual([
      [
        { kind: "prefix", words: "a", exclude: false },
        { kind: "prefix", words: "b", exclude: false },
      ],
    ]);
    expect(parseSearch(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))[0]).toHaveLength(MAX_TERMS);
  });

  it("searches a long punctuated word as a phrase of its parts (the document joins words up to 200 characters)", () => {
    const long = `${"x".repeat(200)}-tail`;
    expect(parseSearch(long)).toEqual([[{ kind: "phrase", words: `${"x".repeat(200)} tail`, exclude: false }]]);
    expect(parseSearch("a.b.c.d.e.f.g.h.i")[0][0].kind).toBe("phrase");
  });
});

describe("list cursors", () => {
  it("round-trips the last row's keys", () => {
    const key = { attention: 8, listedAt: new Date("2026-03-01T12:00:00.123Z"), id: 2_147_483_647 };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  it("refuses anything this server could not have given", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    for (const bad of [
      "",
      "abc",
      b64("9.1.1"),
      b64("1.1.0"),
      b64("1.1.2147483648"),
      b64("1.01.1"),
      b64("1.1.1 "),
      b64("1.-5.1"),
      b64("1.999999999999999.1"),
      `${b64("1.1.1")}=`,
      `${b64("1.1.1")}.`,
      b64("1.1.1\u0000"),
      "A".repeat(49),
    ])
      expect(decodeCursor(bad), bad).toBeUndefined();
  });
});
