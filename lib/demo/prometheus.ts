import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { PROMETHEUS_BINARY, PrometheusStartError, startPrometheus } from "@/lib/sources/prometheus/process";

// A real Prometheus for the demo cluster: it scrapes the simulator's kube-apiserver and KMS plugin
// metrics endpoints, so the KMS metric panels and signals run on the same PromQL as on a real cluster.

export interface DemoPrometheusOptions {
  dataDir: string;
  /** The simulator's base URL, e.g. https://127.0.0.1:41234 (loopback only). */
  simAddress: string;
  /** PEM of the CA the simulator's serving certificate chains to; Prometheus verifies it. */
  caPem?: string;
  /** The simulator's read-only bearer token; written to a 0600 file Prometheus reads, never logged. */
  token: string;
  targets: { nodes: string[]; plugins: { node: string; keyID: string }[] };
  scrapeIntervalSeconds: number;
  binary?: string;
}

export type DemoPrometheus = { url: string; startMs: number; stop: () => Promise<void> } | { unavailable: string };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const NAME = /^[A-Za-z0-9._-]{1,253}$/;

/** Starts Prometheus for the demo; { unavailable } when it cannot run here (binary missing, start failed). */
export async function startDemoPrometheus(opts: DemoPrometheusOptions): Promise<DemoPrometheus> {
  const sim = new URL(opts.simAddress);
  if (!LOOPBACK.has(sim.hostname)) throw new RangeError(`the demo Prometheus only scrapes loopback addresses, not ${sim.hostname}`);
  if (!Number.isInteger(opts.scrapeIntervalSeconds) || opts.scrapeIntervalSeconds < 1 || opts.scrapeIntervalSeconds > 300) {
    throw new RangeError(`scrapeIntervalSeconds must be 1 to 300, got ${opts.scrapeIntervalSeconds}`);
  }
  const names = [...opts.targets.nodes, ...opts.targets.plugins.flatMap((p) => [p.node, p.keyID])];
  const bad = names.find((n) => !NAME.test(n));
  if (bad !== undefined) throw new RangeError(`target name ${JSON.stringify(bad.slice(0, 60))} is not a node name or keyID`);

  // Prometheus reads credentials_file relative to its config file, so every path it is given is absolute.
  const dataDir = path.resolve(opts.dataDir);
  const tokenFile = path.join(dataDir, "sim-token");
  const caFile = opts.caPem ? path.join(dataDir, "sim-ca.crt") : undefined;
  const config = demoConfig(sim, tokenFile, opts, caFile);
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(tokenFile, opts.token, { mode: 0o600 });
    if (caFile) await writeFile(caFile, opts.caPem!, { mode: 0o644 });
    const running = await startPrometheus({ dataDir, config, binary: opts.binary ?? PROMETHEUS_BINARY });
    return { url: running.url, startMs: running.startMs, stop: running.stop };
  } catch (error) {
    if (error instanceof PrometheusStartError) return { unavailable: error.message };
    throw error;
  }
}

/** The scrape config: one job per kind of endpoint, one target per node or plugin, labelled node (and key_id). */
export function demoConfig(sim: URL, tokenFile: string, opts: Pick<DemoPrometheusOptions, "targets" | "scrapeIntervalSeconds">, caFile?: string): string {
  const interval = `${opts.scrapeIntervalSeconds}s`;
  const job = (name: string, targets: { labels: Record<string, string> }[]) => ({
    job_name: name,
    scheme: sim.protocol.replace(":", ""),
    scrape_interval: interval,
    scrape_timeout: `${Math.max(1, Math.min(opts.scrapeIntervalSeconds, 10))}s`,
    authorization: { type: "Bearer", credentials_file: tokenFile },
    // The simulator's own CA: the serving certificate is verified, as for a real API server.
    ...(caFile ? { tls_config: { ca_file: caFile } } : {}),
    // Every target is the same host:port with its own path; the path travels as __metrics_path__.
    static_configs: targets.map((t) => ({ targets: [sim.host], labels: t.labels })),
  });
  return stringify({
    global: { scrape_interval: interval, evaluation_interval: interval },
    scrape_configs: [
      job(
        "kube-apiserver",
        opts.targets.nodes.map((node) => ({ labels: { __metrics_path__: `/kube-apiserver/${node}/metrics`, instance: node, node } })),
      ),
      job(
        "kms-plugin",
        opts.targets.plugins.map((p) => ({
          labels: { __metrics_path__: `/kms-plugins/${p.node}/${p.keyID}/metrics`, instance: `${p.node}/kms-${p.keyID}`, node: p.node, key_id: p.keyID },
        })),
      ),
    ],
  });
}
