import { chmod, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import type { RunningDemo } from "./cluster/start";

// A clusters file (docs/clusters.md) that makes a Faultline watch the simulated clusters `npm run demo -- --clusters N
// --clusters-file F` started: FAULTLINE_CLUSTERS_FILE=F npm start. Each cluster's OpenBao token goes in a file of
// its own beside its kubeconfig (mode 0600), as a real one would; the clusters file names it and holds no secret.

export interface FleetFileOptions {
  /** The reporters' interval (the clusters file takes whole seconds, at least 1). */
  intervalMs: number;
  /** Labels every cluster gets, for the fleet view's search (`--label env=demo`). */
  labels: Record<string, string>;
}

/** Writes the clusters file and each cluster's token file; every path in it is absolute, so Faultline may start anywhere. */
export async function writeFleetFile(file: string, clusters: RunningDemo[], opts: FleetFileOptions): Promise<void> {
  const entries = [];
  for (const c of clusters) {
    const tokenFile = path.resolve(path.dirname(c.kubeconfigPath), `${c.name}.openbao-token`);
    await writeFile(tokenFile, c.endpoints.openBaoToken, { mode: 0o600 });
    await chmod(tokenFile, 0o600);
    const caFile = path.resolve(c.caFile);
    entries.push({
      name: c.name,
      kubeconfig: path.resolve(c.kubeconfigPath),
      intervalSeconds: Math.max(1, Math.round(opts.intervalMs / 1000)),
      openbao: { address: c.endpoints.url, caFile, tokenFile, transitKey: "k8s-kek" },
      beacon: { healthUrl: `${c.endpoints.url}/beacon/healthz`, caFile },
      ...(Object.keys(opts.labels).length > 0 ? { labels: opts.labels } : {}),
    });
  }
  const header = `# Simulated clusters started by npm run demo (pid ${process.pid}); watch them with FAULTLINE_CLUSTERS_FILE=${file} npm start\n`;
  // Whole or not at all: a Faultline starting beside this never reads half a file.
  await writeFile(`${file}.tmp`, header + stringify({ clusters: entries }, { lineWidth: 0, aliasDuplicateObjects: false }), { mode: 0o644 });
  await rename(`${file}.tmp`, file);
}
