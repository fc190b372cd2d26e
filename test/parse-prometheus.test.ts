import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findSamples, parsePrometheusText } from "./parse-prometheus";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "fixtures", name), "utf8");
const KMS_LATENCY = "apiserver_envelope_encryption_kms_operations_latency_seconds";

describe("parsePrometheusText on kube-apiserver's KMS metrics (master-1)", () => {
  const parsed = parsePrometheusText(fixture("kms-metrics.txt"));

  it("reads all ten families without errors", () => {
    expect(parsed.errors).toEqual([]);
    expect(parsed.families).toHaveLength(10);
    expect(parsed.families.every((f) => f.help?.startsWith("[ALPHA] "))).toBe(true);
  });

  it("groups the latency histogram's buckets, sums and counts into one family", () => {
    const latency = parsed.families.find((f) => f.name === KMS_LATENCY);
    expect(latency?.type).toBe("histogram");
    expect(new Set(latency?.samples.map((s) => s.name))).toEqual(new Set([`${KMS_LATENCY}_bucket`, `${KMS_LATENCY}_sum`, `${KMS_LATENCY}_count`]));
    expect(parsed.families.some((f) => f.name.startsWith(`${KMS_LATENCY}_`))).toBe(false);
  });

  it("finds the write key's PermissionDenied encrypts, +Inf bucket included", () => {
    const denied = { provider_name: "2_secrets", method_name: "/v2.KeyManagementService/Encrypt", grpc_status_code: "PermissionDenied" };
    expect(findSamples(parsed, `${KMS_LATENCY}_count`, denied).map((s) => s.value)).toEqual([12]);
    expect(findSamples(parsed, `${KMS_LATENCY}_sum`, denied).map((s) => s.value)).toEqual([0.0852]);
    expect(findSamples(parsed, `${KMS_LATENCY}_bucket`, { ...denied, le: "+Inf" }).map((s) => s.value)).toEqual([12]);
    expect(findSamples(parsed, `${KMS_LATENCY}_bucket`, denied)).toHaveLength(21);
    const timeout = { provider_name: "2_secrets", grpc_status_code: "DeadlineExceeded" };
    expect(findSamples(parsed, `${KMS_LATENCY}_count`, timeout)[0]?.labels.method_name).toBe("/v2.KeyManagementService/Decrypt");
  });

  it("reads the failed writes and the exponent-form timestamps", () => {
    const unavailable = findSamples(parsed, "apiserver_storage_transformation_operations_total", { status: "Unavailable" });
    expect(unavailable).toEqual([
      {
        name: "apiserver_storage_transformation_operations_total",
        labels: { resource: "secrets", status: "Unavailable", transformation_type: "to_storage", transformer_prefix: "k8s:enc:kms:v2:2_secrets:" },
        value: 7,
      },
    ]);
    const lastUsed = findSamples(parsed, "apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds", {
      provider_name: "1_secrets",
    });
    expect(lastUsed[0].value).toBe(1787220897.418);
    expect(lastUsed[0].labels.key_id_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(findSamples(parsed, "apiserver_envelope_encryption_invalid_key_id_from_status_total", { error: "empty" })).toHaveLength(2);
  });
});

describe("parsePrometheusText on bao-kms-provider's metrics", () => {
  const parsed = parsePrometheusText(fixture("bao-kms-provider-metrics.txt"));

  it("reads fifteen families, typed and described", () => {
    expect(parsed.errors).toEqual([]);
    expect(parsed.families).toHaveLength(15);
    const renewals = parsed.families.find((f) => f.name === "openbao_kms_auth_renewal_total");
    expect(renewals).toMatchObject({ type: "counter", help: "Total OpenBao token renewal attempts by bounded status." });
  });

  it("finds the failed Transit metadata reads and the token TTL", () => {
    const failed = findSamples(parsed, "openbao_kms_openbao_requests_total", { operation: "transit_metadata_read", status: "error" });
    expect(failed.map((s) => s.value)).toEqual([4]);
    expect(findSamples(parsed, "openbao_kms_token_ttl_seconds")).toEqual([{ name: "openbao_kms_token_ttl_seconds", labels: {}, value: 1302.55 }]);
    expect(findSamples(parsed, "openbao_kms_rotation_state", { state: "active" })[0].value).toBe(1);
    expect(findSamples(parsed, "openbao_kms_key_version")[0].value).toBe(3);
  });
});

describe("parsePrometheusText, the rest of the format", () => {
  it("unescapes label values and HELP, reads special values, timestamps and untyped samples", () => {
    const parsed = parsePrometheusText(
      [
        "# HELP odd_metric A help with a \\\\ backslash\\nand a newline.",
        "# TYPE odd_metric gauge",
        'odd_metric{path="C:\\\\dir",msg="say \\"hi\\"\\nbye",} +Inf 1787220900000',
        'odd_metric{path="b"} -Inf',
        'odd_metric{path="c"} NaN',
        "# a plain comment",
        "",
        "no_type_at_all 1.5e3",
      ].join("\n"),
    );
    expect(parsed.errors).toEqual([]);
    const [odd, untyped] = parsed.families;
    expect(odd.help).toBe("A help with a \\ backslash\nand a newline.");
    expect(odd.samples[0]).toEqual({ name: "odd_metric", labels: { path: "C:\\dir", msg: 'say "hi"\nbye' }, value: Infinity, timestampMs: 1787220900000 });
    expect(odd.samples[1].value).toBe(-Infinity);
    expect(odd.samples[2].value).toBeNaN();
    expect(untyped).toEqual({ name: "no_type_at_all", type: "untyped", samples: [{ name: "no_type_at_all", labels: {}, value: 1500 }] });
  });

  it("groups a summary's quantiles, sum and count", () => {
    const parsed = parsePrometheusText('# TYPE rpc summary\nrpc{quantile="0.5"} 0.2\nrpc_sum 10\nrpc_count 40\n');
    expect(parsed.families).toHaveLength(1);
    expect(parsed.families[0].samples.map((s) => s.name)).toEqual(["rpc", "rpc_sum", "rpc_count"]);
  });

  it("skips each bad line with its number and a precise reason, keeping the rest", () => {
    const parsed = parsePrometheusText(
      [
        "# TYPE good counter",
        'good{a="1"} 1',
        'good{a="unterminated} 2',
        'good{a="x\\t"} 3',
        'good{a="1",a="2"} 4',
        "good abc",
        "good 1 soon",
        "good{a=1} 5",
        "# TYPE good gauge",
        "# TYPE h histogram",
        'h_bucket{x="1"} 1',
        "h_sum 1",
        "late 1",
        "# TYPE late counter",
        "good constructor",
        '{a="1"} 1',
        "# TYPE weird flavour",
      ].join("\n"),
    );
    expect(parsed.errors).toEqual([
      { line: 3, message: "good: value of label a is not terminated (missing closing quote)" },
      { line: 4, message: 'good: label a has an invalid escape "\\\\t"' },
      { line: 5, message: "good: label a appears twice" },
      { line: 6, message: 'good: value "abc" is not a number' },
      { line: 7, message: 'good: timestamp "soon" is not an integer of milliseconds' },
      { line: 8, message: "good: value of label a does not start with a quote" },
      { line: 9, message: "second TYPE line for good" },
      { line: 11, message: 'histogram bucket h_bucket has no "le" label' },
      { line: 14, message: "TYPE line for late comes after its samples" },
      { line: 15, message: 'good: value "constructor" is not a number' },
      { line: 16, message: 'expected a metric name, got "{a=\\"1\\"} 1"' },
      { line: 17, message: 'unknown metric type "flavour" for weird' },
    ]);
    expect(findSamples(parsed, "good")).toEqual([{ name: "good", labels: { a: "1" }, value: 1 }]);
    expect(findSamples(parsed, "h_sum")).toHaveLength(1);
  });

  it("never throws on input that is not text", () => {
    expect(parsePrometheusText(undefined)).toEqual({ families: [], errors: [{ line: 0, message: "metrics body is not a string" }] });
  });
});
