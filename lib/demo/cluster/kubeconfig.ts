import { stringify } from "yaml";
import type { DemoEndpoints } from "./server";

/** An ordinary kubeconfig for a simulated cluster: read-only by default, admin as a second context. */
export function kubeconfigFor(name: string, endpoints: DemoEndpoints): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    // The simulator's own CA, so every client verifies the serving certificate as on a real cluster.
    clusters: [
      {
        name,
        cluster: { server: endpoints.url, ...(endpoints.caPem ? { "certificate-authority-data": Buffer.from(endpoints.caPem).toString("base64") } : {}) },
      },
    ],
    users: [
      { name: `${name}-readonly`, user: { token: endpoints.readToken } },
      { name: `${name}-admin`, user: { token: endpoints.adminToken } },
    ],
    contexts: [
      { name, context: { cluster: name, user: `${name}-readonly` } },
      { name: `${name}-admin`, context: { cluster: name, user: `${name}-admin` } },
    ],
    "current-context": name,
  });
}
