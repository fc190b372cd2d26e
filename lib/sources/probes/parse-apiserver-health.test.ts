import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseKmsProvidersHealth } from "./parse-apiserver-health";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures", name), "utf8");

/** The fixture holds several responses, each after a "# GET <url> -> HTTP <code>" comment; comments are not body. */
function responses(text: string): { url: string; httpStatus: number; body: string }[] {
  const out: { url: string; httpStatus: number; body: string }[] = [];
  for (const line of text.split("\n")) {
    const header = /^# GET (\S+).*-> HTTP (\d{3})/.exec(line);
    if (header) out.push({ url: header[1], httpStatus: Number(header[2]), body: "" });
    else if (!line.startsWith("#") && out.length > 0) out[out.length - 1].body += `${line}\n`;
  }
  return out;
}

describe("parseKmsProvidersHealth on the fixture responses", () => {
  const [failing, healthy, livez] = responses(fixture("kas-healthz-kms-providers-master-1.txt"));

  it("names both failing write-key providers on master-1 and why", () => {
    expect(failing.httpStatus).toBe(500);
    expect(parseKmsProvidersHealth(failing.httpStatus, failing.body)).toEqual({
      ok: false,
      httpStatus: 500,
      providers: [
        { name: "2_secrets", check: "kms-provider-0", healthy: false, error: "got unexpected healthz status: credential lacks decrypt permission" },
        { name: "2_configmaps", check: "kms-provider-2", healthy: false, error: "got unexpected healthz status: credential lacks decrypt permission" },
      ],
    });
  });

  it("reads master-0's 200 ok", () => {
    expect(parseKmsProvidersHealth(healthy.httpStatus, healthy.body)).toEqual({ ok: true, httpStatus: 200, providers: [] });
  });

  it("explains the 404 on /livez/kms-providers", () => {
    expect(livez.url).toBe("https://master-1:6443/livez/kms-providers");
    expect(parseKmsProvidersHealth(livez.httpStatus, livez.body).problem).toBe(
      "HTTP 404: no kms-providers check here (it is on /healthz and /readyz, never /livez)",
    );
  });
});

describe("parseKmsProvidersHealth, other bodies", () => {
  it("reads a single failing provider, printed without brackets", () => {
    const body =
      "internal server error: kms-provider-1: kmsv2 Provider 1_secrets is not healthy, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded\n";
    expect(parseKmsProvidersHealth(500, body).providers).toEqual([
      { name: "1_secrets", check: "kms-provider-1", healthy: false, error: "rpc error: code = DeadlineExceeded desc = context deadline exceeded" },
    ]);
  });

  it("says what is wrong with unexpected responses", () => {
    expect(parseKmsProvidersHealth(500, "upstream connect error").problem).toBe(
      'HTTP 500 body does not start with "internal server error: ": "upstream connect error"',
    );
    expect(parseKmsProvidersHealth(503, "").problem).toBe("HTTP 503: expected 200 or 500");
    expect(parseKmsProvidersHealth(500, "internal server error: something odd")).toEqual({
      ok: false,
      httpStatus: 500,
      providers: [{ name: "", healthy: false, error: "something odd" }],
      problem: 'could not find the kms-provider-<n> check in "something odd"',
    });
    expect(parseKmsProvidersHealth(200, null).problem).toBe("body is not a string");
  });
});
