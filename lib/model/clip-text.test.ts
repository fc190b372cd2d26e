import { describe, expect, it } from "vitest";
import { clipLine, clipLineKeepingEnd, clipText } from "./clip-text";

describe("clipText and clipLine", () => {
  it("leaves short text alone", () => {
    expect(clipText("abc", 3)).toEqual({ text: "abc", clipped: false });
    expect(clipLine("credential lacks\n decrypt permission", 300)).toBe("credential lacks decrypt permission");
  });

  it("cuts long text, one line with an ellipsis", () => {
    expect(clipText("abcdef", 4)).toEqual({ text: "abcd", clipped: true });
    expect(clipLine("a\nb\tc d e f", 5)).toBe("a b c…");
  });

  it("adds the ellipsis even when flattening whitespace brought the window under the limit", () => {
    expect(clipLine(`${" ".repeat(40)}x${"y".repeat(40)}`, 10)).toBe("xyyyyyyyyy…");
  });

  it("never leaves half a surrogate pair", () => {
    expect(clipText("ab🔑", 3)).toEqual({ text: "ab", clipped: true });
  });

  it("keeps the cause at the end of a long error chain, cutting in the middle", () => {
    const chain = `Error making API request. URL: PUT https://bao.example.com/v1/auth/jwt/login Code: 400. Errors: * error configuring token validator: keyset configuration error: Get "https://oidc.example.com/.well-known/openid-configuration": ${"x".repeat(400)} tls: failed to verify certificate: x509: certificate signed by unknown authority`;
    const line = clipLineKeepingEnd(chain, 300);
    expect(line.length).toBeLessThanOrEqual(300);
    expect(line.startsWith("Error making API request.")).toBe(true);
    expect(line.endsWith("x509: certificate signed by unknown authority")).toBe(true);
    expect(line).toContain(" … ");
    expect(clipLineKeepingEnd("short\n line", 300)).toBe("short line");
    expect(clipLineKeepingEnd(`${"a".repeat(5_000_000)} the end`, 300).endsWith("the end")).toBe(true);
  });
});
