import "server-only";
import http from "node:http";
import https from "node:https";
import * as k8s from "@kubernetes/client-node";
import type { ClusterConfig } from "@/lib/clusters/config";

// The Kubernetes side of one watched cluster, behind one adapter: typed API clients plus raw GETs
// for the API server's own health endpoints. Credentials come from the kubeconfig; Faultline only reads.

export interface KubeAccess {
  config: k8s.KubeConfig;
  custom: k8s.CustomObjectsApi;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  admission: k8s.AdmissionregistrationV1Api;
  server: string;
}

export function connect(cluster: Pick<ClusterConfig, "kubeconfig" | "context" | "inCluster">): KubeAccess {
  const config = new k8s.KubeConfig();
  if (cluster.inCluster) config.loadFromCluster();
  else config.loadFromFile(cluster.kubeconfig!);
  if (cluster.context) config.setCurrentContext(cluster.context);
  const server = config.getCurrentCluster()?.server;
  if (!server) throw new Error(`kubeconfig ${cluster.kubeconfig ?? "(in-cluster)"} has no current cluster`);
  return {
    config,
    server,
    custom: config.makeApiClient(k8s.CustomObjectsApi),
    core: config.makeApiClient(k8s.CoreV1Api),
    apps: config.makeApiClient(k8s.AppsV1Api),
    admission: config.makeApiClient(k8s.AdmissionregistrationV1Api),
  };
}

/** GET a non-resource path (/readyz?verbose, /healthz/kms-providers): status and body text. */
export async function getRaw(access: KubeAccess, path: string, timeoutMs = 5000): Promise<{ status: number; body: string }> {
  const url = new URL(path, access.server);
  const options: https.RequestOptions = { method: "GET", headers: {}, timeout: timeoutMs };
  await access.config.applyToHTTPSOptions(options);
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = lib.request(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= 1024 * 1024) chunks.push(chunk);
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("timeout", () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end();
  });
}
