import "server-only";
import { CatalogError } from "@/lib/catalog/load";
import { getCatalog } from "@/lib/catalog/queries";
import { ensureDatabase } from "@/lib/db/bootstrap";
import { readFileSync } from "node:fs";
import { ClusterConfigError, loadClustersFile } from "@/lib/clusters/config";
import { DEMO_BOOKMARK_SECONDS, startDemoCluster } from "@/lib/demo/runtime";
import { startMonitor } from "@/lib/monitor/monitor";
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
  } catch (error) {
    // Keep serving: /api/readyz reports the database as down and the catalog still works.
    console.error(`[faultline] database unavailable: ${(error as Error).message}`);
  }
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
    startMonitor(
      {
        cluster: { name: "demo", kubeconfig: demo.kubeconfigPath, inCluster: false, intervalSeconds: env.FAULTLINE_DEMO_INTERVAL_SECONDS, watchStallSeconds: DEMO_BOOKMARK_SECONDS * 4, openbao: { address: demo.endpoints.url, transitKey: "k8s-kek" } },
        openBaoToken: demo.endpoints.openBaoToken,
      },
      { simulated: true, pollSeconds: env.FAULTLINE_POLL_SECONDS },
    );
  } catch (error) {
    console.error(`[faultline] the demo cluster could not start: ${(error as Error).message}`);
  }
}

/** A token file's content; its value is never logged. */
function readSecretFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    console.error(`[faultline] cannot read the OpenBao token file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    return undefined;
  }
}
