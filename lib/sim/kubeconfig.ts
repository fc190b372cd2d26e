import { stringify } from "yaml";
import type { SimEndpoints } from "./server";

/** An ordinary kubeconfig for a simulated cluster: read-only by default, admin as a second context. */
export function kubeconfigFor(name: string, endpoints: SimEndpoints): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    // Plain http on loopback: @kubernetes/client-node only allows that with TLS verification off.
    clusters: [{ name, cluster: { server: endpoints.url, "insecure-skip-tls-verify": true } }],
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
