import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { kubeconfigFor } from "@/lib/demo/cluster/kubeconfig";
import { DemoServer } from "@/lib/demo/cluster/server";
import { connect, type KubeAccess } from "@/lib/sources/kube/client";

// A demo API server on loopback (3 nodes) and the real client's access to it through an ordinary kubeconfig
// file, as the monitor connects to a cluster. `stop` shuts the server down and removes the file.

export interface DemoApi {
  server: DemoServer;
  access: KubeAccess;
  stop: () => Promise<void>;
}

/** Without `bookmarkIntervalMs` the server keeps its default, a minute, as a real API server sends them. */
export async function startDemoApi(options: { bookmarkIntervalMs?: number } = {}): Promise<DemoApi> {
  const server = new DemoServer({ cluster: new DemoCluster({ nodes: 3, intervalMs: 60_000 }), ...options });
  const endpoints = await server.start();
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-demo-api-"));
  const file = path.join(dir, "demo.kubeconfig");
  writeFileSync(file, kubeconfigFor("demo", endpoints));
  const access = connect({ kubeconfig: file, inCluster: false });
  return {
    server,
    access,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
