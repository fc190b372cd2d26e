import { describe, expect, it } from "vitest";
import { rawRequest } from "@/test/demo-request";
import { parsePrometheusText } from "@/test/parse-prometheus";
import { DemoCluster } from "./cluster";
import { resetCounters } from "./counters";
import { renderApiserverMetrics, renderPluginMetrics } from "./render-endpoints";
import { setScenario } from "./scenarios";
import { DemoServer } from "./server";

// The simulator's counters move with its clock, so rate() over them shows traffic and errors.

const T0 = Date.parse("2026-08-20T10:00:00Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000);

async function value(text: Promise<string | undefined>, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const parsed = parsePrometheusText((await text) ?? "");
  const samples = parsed.families.flatMap((f) => f.samples).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return samples.length === 1 ? samples[0].value : undefined;
}

const decrypts = (code: string) => ({ grpc_status_code: code, method_name: "/v2.KeyManagementService/Decrypt", provider_name: "1_secrets" });
const COUNT = "apiserver_envelope_encryption_kms_operations_latency_seconds_count";

describe("simulated metrics over time", () => {
  it("count decrypts at 0.5/s per provider, and failed ones only while the plugin is down", async () => {
    const cluster = new DemoCluster({ nodes: 3 });
    // A scenario rebuilds the model's nodes, so each read looks master-1 up again.
    const read = (s: number, code: string) => value(renderApiserverMetrics(cluster.model, cluster.model.nodes[1], at(s)), COUNT, decrypts(code));
    expect(await read(0, "OK")).toBe(0);
    expect(await read(60, "OK")).toBe(30);
    expect(await read(60, "Unavailable")).toBeUndefined();

    setScenario(cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    expect(await read(120, "Unavailable")).toBe(30);
    expect(await read(120, "OK")).toBe(30);
    setScenario(cluster, "kms-plugin-unavailable", false);
    // Counted errors stay counted after the plugin recovers; only the OK count grows again.
    expect(await read(180, "Unavailable")).toBe(30);
    expect(await read(180, "OK")).toBe(60);
  });

  it("never go backwards when the clock does", async () => {
    const cluster = new DemoCluster({ nodes: 1 });
    const node = cluster.model.nodes[0];
    await renderApiserverMetrics(cluster.model, node, at(0));
    expect(await value(renderApiserverMetrics(cluster.model, node, at(100)), COUNT, decrypts("OK"))).toBe(50);
    expect(await value(renderApiserverMetrics(cluster.model, node, at(40)), COUNT, decrypts("OK"))).toBe(50);
  });

  it("put a slow OpenBao's decrypts in the slow buckets", async () => {
    const cluster = new DemoCluster({ nodes: 1 });
    await renderApiserverMetrics(cluster.model, cluster.model.nodes[0], at(0));
    setScenario(cluster, "openbao-audit-backend-pressure", true);
    const text = renderApiserverMetrics(cluster.model, cluster.model.nodes[0], at(100));
    const bucket = (le: string) => value(text, "apiserver_envelope_encryption_kms_operations_latency_seconds_bucket", { ...decrypts("OK"), le });
    expect([await bucket("0.1024"), await bucket("0.2048"), await bucket("+Inf")]).toEqual([0, 50, 50]);
  });

  it("show the plugin's breaker open, its errors growing and its key_id flip-flopping", async () => {
    const cluster = new DemoCluster({ nodes: 3 });
    const plugin = (s: number) => renderPluginMetrics(cluster.model, cluster.model.nodes[0], "1", at(s));
    const hash = async (s: number) =>
      parsePrometheusText((await plugin(s))!)
        .families.find((f) => f.name === "openbao_kms_status_key_id_hash")!
        .samples.map((x) => x.labels.hash);
    const steady = await hash(0);
    setScenario(cluster, "openbao-sealed", true);
    expect(await value(plugin(60), "openbao_kms_circuit_breaker_state", {})).toBe(1);
    expect(await value(plugin(60), "openbao_kms_grpc_requests_total", { method: "decrypt", status: "error" })).toBe(60);
    setScenario(cluster, "openbao-sealed", false);
    expect(await value(plugin(70), "openbao_kms_circuit_breaker_state", {})).toBe(0);

    setScenario(cluster, "key-id-flip-flops", true);
    const seen = [await hash(100), await hash(170), await hash(230), await hash(290)];
    expect(seen[0]).not.toEqual(steady);
    expect(seen).toEqual([seen[0], steady, seen[0], steady]);
  });

  it("start again from their base once reset, as after a restart of the servers", async () => {
    const cluster = new DemoCluster({ nodes: 1 });
    const read = (s: number) => value(renderApiserverMetrics(cluster.model, cluster.model.nodes[0], at(s)), COUNT, decrypts("OK"));
    await read(0);
    expect(await read(100)).toBe(50);
    resetCounters(cluster.model);
    expect(await read(200)).toBe(0);
    expect(await read(300)).toBe(50);
  });

  it("carry the cluster clock's time on every sample when the cluster stamps its metrics, and none otherwise", async () => {
    for (const stampMetrics of [true, false]) {
      const server = new DemoServer({ cluster: new DemoCluster({ nodes: 1, intervalMs: 60_000, now: () => at(42), stampMetrics }) });
      const ep = await server.start();
      try {
        for (const path of ["/kube-apiserver/master-0/metrics", "/kms-plugins/master-0/1/metrics"]) {
          const served = await rawRequest(ep, path, { token: ep.readToken });
          expect(served.status).toBe(200);
          const parsed = parsePrometheusText(served.body);
          expect(parsed.errors, path).toEqual([]);
          const stamps = new Set(parsed.families.flatMap((f) => f.samples.map((x) => x.timestampMs)));
          expect([...stamps], `${path} stamped: ${stampMetrics}`).toEqual([stampMetrics ? T0 + 42_000 : undefined]);
        }
      } finally {
        await server.stop();
      }
    }
  });
});
