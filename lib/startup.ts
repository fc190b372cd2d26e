import "server-only";
import { CatalogError, loadCatalog } from "@/lib/catalog/load";
import { ensureDatabase } from "@/lib/db/bootstrap";
import { startDemoCluster } from "@/lib/demo/runtime";
import { EnvError, loadEnv } from "@/lib/env";
import packageJson from "@/package.json";

// What a server process does before serving: validate config and content, start the database.
// A bad config or catalog stops the process with a precise message instead of serving broken pages.

export async function startServerProcess(): Promise<void> {
  try {
    loadEnv();
    loadCatalog();
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
  try {
    const demo = await startDemoCluster();
    if (demo) console.log(`[faultline] demo cluster (simulated) on ${demo.endpoints.url}; kubeconfig ${demo.kubeconfigPath}`);
  } catch (error) {
    console.error(`[faultline] the demo cluster could not start: ${(error as Error).message}`);
  }
}
