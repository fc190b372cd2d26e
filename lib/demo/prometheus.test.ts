import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveMetricSignals } from "@/lib/signals/derive-metric-signals";
import { collectKmsMetrics, fromMetricValue, KMS_METRIC_NAMES, type KmsMetrics } from "@/lib/sources/prometheus/kms-metrics";
import { requirePrometheus } from "@/test/prometheus";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { DemoServer } from "@/lib/demo/cluster/server";
import { startDemoPrometheus } from "./prometheus";
import { evidenceTexts, rankSuspects } from "@/lib/incidents/suspects/suspects";

// The whole path on real parts: the simulator serves metrics, Debian's Prometheus scrapes them every
// second, Faultline's PromQL reads them back, and an injected failure shows up as a signal.

let server: DemoServer;
let dir: string;
let prom: Awaited<ReturnType<typeof startDemoPrometheus>>;
let url: string;

beforeAll(async () => {
  requirePrometheus();
  server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }) });
  const endpoints = await server.start();
  dir = await mkdtemp(path.join(tmpdir(), "faultline-demo-prom-"));
  const nodes = server.cluster.model.nodes.map((n) => n.name);
  prom = await startDemoPrometheus({
    // Relative, as FAULTLINE_DATA_DIR usually is (.data): the token file must still be found.
    dataDir: path.relative(process.cwd(), dir),
    simAddress: endpoints.url,
    caPem: endpoints.caPem,
    token: endpoints.readToken,
    targets: { nodes, plugins: nodes.map((node) => ({ node, keyID: "1" })) },
    scrapeIntervalSeconds: 1,
  });
  if ("unavailable" in prom) throw new Error(`demo Prometheus did not start: ${prom.unavailable}`);
  url = prom.url;
});

afterAll(async () => {
  if (prom && "stop" in prom) await prom.stop();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Collects until the check passes (Prometheus needs two scrapes for a rate), or fails with the last answer. */
async function collectUntil(check: (m: KmsMetrics) => boolean, what: string, ms = 20_000): Promise<KmsMetrics> {
  const end = Date.now() + ms;
  let last: KmsMetrics | undefined;
  while (Date.now() < end) {
    last = await collectKmsMetrics(url, new Date());
    if (check(last)) return last;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}; last errors: ${JSON.stringify(last?.errors)}`);
}

const valueOf = (m: KmsMetrics, metric: keyof KmsMetrics["metrics"], labels: Record<string, string>) =>
  fromMetricValue(m.metrics[metric].series.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value);

describe("the demo Prometheus against the simulator", () => {
  it("keeps the token in a 0600 file and out of the config", async () => {
    const config = await readFile(path.join(dir, "prometheus.yml"), "utf8");
    const { readToken } = server.endpoints();
    expect(config).not.toContain(readToken);
    expect(config).toContain("credentials_file");
    expect((await stat(path.join(dir, "sim-token"))).mode & 0o777).toBe(0o600);
  });

  it("reads every KMS metric from the scraped endpoints, per node and provider", async () => {
    // The first scrape comes about 5 s after start; the key_id change counts need one 15 s subquery step.
    const everyNode = (x: KmsMetrics) =>
      ["master-0", "master-1", "master-2"].every((node) => valueOf(x, "latencyP99", { node, provider_name: "1_configmaps", method: "Decrypt" }) > 0);
    const everyMetric = (x: KmsMetrics) =>
      KMS_METRIC_NAMES.filter((n) => n !== "errorRate" && n !== "identityWrites").every((n) => x.metrics[n].series.filter((s) => s.value !== null).length >= 3);
    const m = await collectUntil((x) => everyNode(x) && everyMetric(x), "every KMS metric from every node", 40_000);
    expect(m.errors).toEqual([]);
    // rate() divides by the whole 5m window, so a Prometheus seconds old reads low; the mix is exact: 0.5 vs 0.05 calls/s.
    const decrypts = valueOf(m, "requestRate", { node: "master-0", provider_name: "1_secrets", method: "Decrypt" });
    expect(decrypts / valueOf(m, "requestRate", { node: "master-0", provider_name: "1_secrets", method: "Encrypt" })).toBeCloseTo(10, 3);
    const p99 = valueOf(m, "latencyP99", { node: "master-1", provider_name: "1_configmaps", method: "Decrypt" });
    expect(p99).toBeGreaterThan(0.0004);
    expect(p99).toBeLessThanOrEqual(0.0008);
    expect(valueOf(m, "tokenTtl", { node: "master-2", key_id: "1" })).toBe(2764800);
    expect(valueOf(m, "certificateTtl", { node: "master-2", key_id: "1" })).toBe(7776000);
    expect(valueOf(m, "circuitBreaker", { node: "master-0", key_id: "1" })).toBe(0);
    expect(valueOf(m, "keyIdHashes", { node: "master-0", provider_name: "1_secrets" })).toBe(1);
    expect(valueOf(m, "keyIdChanges", { node: "master-0", provider_name: "1_secrets" })).toBe(0);
    expect(m.metrics.errorRate.series).toEqual([]);
    expect(m.metrics.identityWrites.series).toEqual([]);
    const sparkline = m.metrics.requestRate.series.find((s) => s.labels.node === "master-0")!.points;
    expect(sparkline.length).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
    const signals = deriveMetricSignals(m, new Date());
    expect(signals.filter((s) => s.state !== "ok").map((s) => `${s.id} ${s.subject} ${s.state}: ${s.detail}`)).toEqual([]);
  });

  it("shows a plugin going down on master-1 as decrypt errors and an open circuit breaker", async () => {
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-1" });
    try {
      const m = await collectUntil(
        (x) =>
          valueOf(x, "errorRate", { node: "master-1", provider_name: "1_secrets", method: "Decrypt" }) > 0 &&
          valueOf(x, "circuitBreaker", { node: "master-1" }) === 1,
        "decrypt errors on master-1",
      );
      const signals = deriveMetricSignals(m, new Date());
      const errors = signals.find((s) => s.id === "kms.decrypt.errors" && s.subject === "master-1/1_secrets");
      expect(errors?.state).toBe("critical");
      expect(errors?.detail).toMatch(/^Decrypt failing: [\d.]+\/s of [\d.]+\/s \(\d+%\) over 5m/);
      expect(signals.find((s) => s.id === "kms.plugin.unhealthy" && s.subject === "master-1/1/circuit-breaker")?.state).toBe("critical");
      expect(signals.find((s) => s.id === "kms.decrypt.errors" && s.subject === "master-0/1_secrets")?.state).toBe("ok");
    } finally {
      setScenario(server.cluster, "kms-plugin-unavailable", false);
    }
  });

  it("quotes the plugin's own refusal counters, so the AAD and annotation scenarios are named apart", async () => {
    // The first scenario's counts stay within the 15-minute window of the second, so only the first is ranked alone.
    for (const [scenario, reason, ranked] of [
      ["annotations-missing-or-malformed", "annotation_invalid", true],
      ["aad-mismatch", "aad_mismatch", false],
    ] as const) {
      setScenario(server.cluster, scenario, true);
      // A refusal a second rather than a few in ten minutes, so the counter grows within the test; the reason is the scenario's.
      server.cluster.model.decrypt.aadErrors = 600;
      try {
        const labels = { node: "master-0", metric: "openbao_kms_aad_validation_errors_total", reason };
        const m = await collectUntil((x) => valueOf(x, "pluginFailures", labels) >= 1, `${reason} counted on master-0`, 40_000);
        const counted = deriveMetricSignals(m, new Date()).find((s) => s.id === "kms.plugin.errors" && s.subject === "master-0/1")!;
        expect(counted.state).toBe("critical");
        expect(counted.detail).toMatch(new RegExp(`^The plugin counted in 15m: decrypts refused by AAD validation \\(${reason}\\): \\d+`));
        const active = deriveMetricSignals(m, new Date()).filter((s) => s.state !== "ok");
        const suspects = rankSuspects({
          active: active.map((s) => ({ signal: s.id, subject: s.subject, state: s.state, detail: s.detail, texts: evidenceTexts(s) })),
        });
        if (ranked) expect(suspects[0]?.id).toBe(scenario);
      } finally {
        setScenario(server.cluster, scenario, false);
      }
    }
  }, 100_000);

  it("shows OpenBao's slow audit device as high KMS latency", async () => {
    setScenario(server.cluster, "openbao-audit-backend-pressure", true);
    try {
      const m = await collectUntil((x) => valueOf(x, "latencyP99", { node: "master-2", provider_name: "1_secrets", method: "Decrypt" }) > 0.1, "a slow p99");
      const slow = deriveMetricSignals(m, new Date()).find((s) => s.id === "kms.latency.high" && s.subject === "master-2/1_secrets");
      expect(slow?.state).toBe("warning");
      expect(slow?.detail).toMatch(/Decrypt p99 \d+ ms/);
    } finally {
      setScenario(server.cluster, "openbao-audit-backend-pressure", false);
    }
  });

  it("shows plaintext writes through a left-enabled identity provider", async () => {
    setScenario(server.cluster, "identity-fallback-left-enabled", true);
    try {
      const m = await collectUntil((x) => valueOf(x, "identityWrites", { node: "master-0", resource: "secrets" }) > 0, "identity writes on master-0");
      const plain = deriveMetricSignals(m, new Date()).find((s) => s.id === "encryption.identity-fallback" && s.subject === "master-0/secrets");
      expect(plain?.state).toBe("critical");
      expect(plain?.detail).toMatch(/^\d+ writes? of secrets stored as plaintext \(identity provider\) in 15m/);
    } finally {
      setScenario(server.cluster, "identity-fallback-left-enabled", false);
    }
  });

  it("answers unavailable, without throwing, when the binary is missing", async () => {
    const missing = await startDemoPrometheus({
      dataDir: path.join(dir, "missing"),
      simAddress: server.endpoints().url,
      token: "t",
      targets: { nodes: [], plugins: [] },
      scrapeIntervalSeconds: 1,
      binary: "/nonexistent/prometheus",
    });
    expect(missing).toEqual({ unavailable: expect.stringMatching(/^\/nonexistent\/prometheus is not installed/) });
  });
});
