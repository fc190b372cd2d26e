import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DemoCluster, type DemoClusterOptions } from "./cluster";
import { kubeconfigFor } from "./kubeconfig";
import { DemoServer, type DemoEndpoints } from "./server";
import type { ServingTls } from "./tls";

// Starting simulated clusters and leaving what a client needs to reach them under a folder:
// <name>.kubeconfig (an ordinary kubeconfig), <name>-ca.crt (the CA its serving certificate chains to,
// for clients that take a CA file) and <name>.json (endpoints and tokens, mode 0600).

export interface RunningDemo {
  name: string;
  server: DemoServer;
  endpoints: DemoEndpoints;
  kubeconfigPath: string;
  caFile: string;
}

/** `tls`: a CA and serving certificate to share (a fleet of simulated clusters needs not make 2 RSA keys each). */
export async function startSimulatedCluster(
  options: DemoClusterOptions & { port?: number; bookmarkIntervalMs?: number; dir: string; tls?: ServingTls },
): Promise<RunningDemo> {
  const name = options.name ?? "demo";
  const server = new DemoServer({
    cluster: new DemoCluster({ ...options, name }),
    port: options.port,
    bookmarkIntervalMs: options.bookmarkIntervalMs,
    tls: options.tls,
  });
  const endpoints = await server.start();
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const kubeconfigPath = path.join(options.dir, `${name}.kubeconfig`);
  await writeFile(kubeconfigPath, kubeconfigFor(name, endpoints), { mode: 0o600 });
  const caFile = path.join(options.dir, `${name}-ca.crt`);
  await writeFile(caFile, endpoints.caPem ?? "", { mode: 0o644 });
  const info = path.join(options.dir, `${name}.json`);
  await writeFile(info, JSON.stringify({ name, ...endpoints, caPem: undefined, caFile, kubeconfig: kubeconfigPath, pid: process.pid }, null, 2), {
    mode: 0o600,
  });
  await chmod(info, 0o600);
  return { name, server, endpoints, kubeconfigPath, caFile };
}
