import "server-only";
import { startAuditWriter } from "@/lib/auth/audit";
import { CatalogError } from "@/lib/catalog/load";
import { getCatalog } from "@/lib/catalog/queries";
import { ensureDatabase } from "@/lib/db/bootstrap";
import { readFileSync } from "node:fs";
import { ClusterConfigError, loadClustersFile } from "@/lib/clusters/config";
import { setClusterLabels } from "@/lib/fleet/labels";
import path from "node:path";
import { startDemoPrometheus } from "@/lib/demo/prometheus";
import { demoBookmarkSeconds, startDemoCluster } from "@/lib/demo/runtime";
import type { RunningDemo } from "@/lib/demo/cluster/start";
import { startMonitor } from "@/lib/monitor/monitor";
import { startNotifications } from "@/lib/notifications/start";
import { EnvError, loadEnv } from "@/lib/env";
import packageJson from "@/package.json";

// What a server process does before serving: validate config and content, start the database.
// A bad config or catalog stops the process with a precise message instead of serving broken pages.

export async function startServerProcess(): Promise<void> {
  try {
    loadEnv();
    getCatalog();
  } catch (error) {
    if (error instanceof EnvError || error instanceof CatalogError) {
      console.error(`[faultline] ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  try {
    await ensureDatabase(packageJson.version);
    // Incident changes wait in the outbox until this delivers them (docs/notifications.md).
    startNotifications(packageJson.version);
  } catch (error) {
    // Keep serving: /api/readyz reports the database as down and the catalog still works.
    console.error(`[faultline] database unavailable: ${(error as Error).message}`);
  }
  // Refusals the edge and the gate noted reach audit_log from here; while the database is down they wait, counted.
  startAuditWriter();
  const env = loadEnv();
  if (env.FAULTLINE_CLUSTERS_FILE) {
    let clusters;
    try {
      clusters = loadClustersFile(env.FAULTLINE_CLUSTERS_FILE);
    } catch (error) {
      if (!(error instanceof ClusterConfigError)) throw error;
      console.error(`[faultline] invalid FAULTLINE_CLUSTERS_FILE: ${error.message}`);
      process.exit(2);
    }
    setClusterLabels(clusters);
    for (const cluster of clusters) {
      const openBaoToken = cluster.openbao?.tokenFile ? readSecretFile(cluster.openbao.tokenFile) : undefined;
      startMonitor({ cluster, openBaoToken }, { simulated: false, pollSeconds: env.FAULTLINE_POLL_SECONDS });
      console.log(`[faultline] watching cluster ${cluster.name}`);
    }
    return;
  }
  try {
    const demo = await startDemoCluster();
    if (!demo) return;
    console.log(`[faultline] demo cluster (simulated) on ${demo.endpoints.url}; kubeconfig ${demo.kubeconfigPath}`);
    const prometheus = await startDemoMetrics(demo);
    startMonitor(
      {
        cluster: {
          name: "demo",
          kubeconfig: demo.kubeconfigPath,
          inCluster: false,
          intervalSeconds: env.FAULTLINE_DEMO_INTERVAL_SECONDS,
          watchStallSeconds: Math.max(5, demoBookmarkSeconds() * 4),
          openbao: { address: demo.endpoints.url, caFile: demo.caFile, transitKey: "k8s-kek" },
          beacon: { healthUrl: `${demo.endpoints.url}/beacon/healthz`, caFile: demo.caFile },
          ...("url" in prometheus ? { prometheus: { url: prometheus.url } } : {}),
        },
        openBaoToken: demo.endpoints.openBaoToken,
        prometheusNote: "unavailable" in prometheus ? prometheus.unavailable : undefined,
      },
      { simulated: true, pollSeconds: env.FAULTLINE_POLL_SECONDS },
    );
  } catch (error) {
    console.error(`[faultline] the demo cluster could not start: ${(error as Error).message}`);
  }
}

/** The demo's KMS metrics: Debian's Prometheus scraping the simulator, when it is installed. */
async function startDemoMetrics(demo: RunningDemo): Promise<{ url: string } | { unavailable: string }> {
  const env = loadEnv();
  if (env.FAULTLINE_DEMO_PROMETHEUS === "off") return { unavailable: "the demo's Prometheus is off (FAULTLINE_DEMO_PROMETHEUS=off)" };
  // Every node is scraped up to a bound; a 5,000-node demo is for the health model, not for metrics.
  const nodes = demo.server.cluster.model.nodes.filter((n) => n.present).slice(0, DEMO_SCRAPED_NODES);
  try {
    const started = await startDemoPrometheus({
      dataDir: path.join(env.FAULTLINE_DATA_DIR, "prometheus"),
      simAddress: demo.endpoints.url,
      caPem: demo.endpoints.caPem,
      token: demo.endpoints.readToken,
      targets: { nodes: nodes.map((n) => n.name), plugins: nodes.flatMap((n) => n.plugins.map((p) => ({ node: n.name, keyID: p.keyID }))) },
      scrapeIntervalSeconds: 5,
    });
    if ("unavailable" in started) {
      console.log(`[faultline] KMS metrics: no Prometheus for the demo cluster (${started.unavailable})`);
      return started;
    }
    console.log(`[faultline] KMS metrics: Prometheus for the demo cluster on ${started.url}, ready in ${started.startMs} ms`);
    return { url: started.url };
  } catch (error) {
    console.error(`[faultline] KMS metrics: the demo's Prometheus could not start: ${(error as Error).message}`);
    return { unavailable: (error as Error).message };
  }
}

const DEMO_SCRAPED_NODES = 20;

/** A token file's content; its value is never logged. */
function readSecretFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    console.error(`[faultline] cannot read the OpenBao token file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    return undefined;
  }
}
