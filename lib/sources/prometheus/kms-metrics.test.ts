import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveMetricSignals } from "@/lib/signals/derive-metric-signals";
import { collectKmsMetrics, KMS_METRIC_NAMES } from "./kms-metrics";
import type { RunningPrometheus } from "./process";
import { startEmptyPrometheus } from "@/test/prometheus";

// collectKmsMetrics against a real Prometheus, reached through a small proxy that breaks one query the
// way a misbehaving gateway would: the proxy is the fault, Prometheus behind it is real.

let prom: RunningPrometheus;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  prom = await startEmptyPrometheus();
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString();
      if (new URLSearchParams(body).get("query")?.includes("openbao_kms_token_ttl_seconds")) {
        res.writeHead(503, { "content-type": "text/html" }).end("<h1>upstream overloaded</h1>");
        return;
      }
      const upstream = await fetch(`${prom.url}${req.url}`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(await upstream.text());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await prom?.stop();
});

describe("collectKmsMetrics", () => {
  it("runs every query Prometheus accepts, and keeps one failing query's error to itself", async () => {
    const now = new Date();
    const m = await collectKmsMetrics(proxyUrl, now);
    expect(m.errors.map((e) => `${e.metric} ${e.query} ${e.kind} ${e.status}`)).toEqual(["tokenTtl instant http 503", "tokenTtl range http 503"]);
    expect(m.errors[0].message).toContain('text/html answer: "<h1>upstream overloaded</h1>"');
    expect(KMS_METRIC_NAMES.filter((n) => m.metrics[n].answered)).toEqual(KMS_METRIC_NAMES.filter((n) => n !== "tokenTtl"));
    // This Prometheus scrapes nothing: every query is valid PromQL that finds no series.
    expect(KMS_METRIC_NAMES.map((n) => m.metrics[n].series.length)).toEqual(KMS_METRIC_NAMES.map(() => 0));
    expect(m.at).toBe(now.toISOString());
    expect(m.history).toEqual({ start: new Date(now.getTime() - 15 * 60_000).toISOString(), end: now.toISOString(), stepSeconds: 15 });
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);

    const ttl = deriveMetricSignals(m, now).filter((s) => s.id === "kms.auth.ttl-low");
    expect(ttl).toEqual([
      expect.objectContaining({
        subject: "prometheus",
        state: "unknown",
        detail: expect.stringMatching(/^Prometheus query failed \(tokenTtl: .* answered HTTP 503/),
      }),
    ]);
  });

  it("never throws for an unreachable Prometheus, and never shows its credentials", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const m = await collectKmsMetrics(`http://admin:hunter2@127.0.0.1:${port}/`, new Date(), { timeoutMs: 2000 });
    expect(m.errors).toHaveLength(KMS_METRIC_NAMES.length * 2);
    expect(new Set(m.errors.map((e) => e.kind))).toEqual(new Set(["unreachable"]));
    expect(m.source).toBe(`http://127.0.0.1:${port}`);
    expect(JSON.stringify(m)).not.toContain("hunter2");
  });
});
