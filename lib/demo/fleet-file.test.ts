import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseClustersFile } from "@/lib/clusters/config";
import { startSimulatedCluster, type RunningDemo } from "./cluster/start";
import { makeServingTls } from "./cluster/tls";
import { writeFleetFile } from "./fleet-file";

// The clusters file `npm run demo -- --clusters N --clusters-file F` writes: Faultline's own parser takes it, and it
// points at the running simulators with their CA and a token file, never a token.

const dir = mkdtempSync(path.join(tmpdir(), "faultline-fleet-file-"));
const started: RunningDemo[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.server.stop()));
  rmSync(dir, { recursive: true, force: true });
});

describe("the demo's clusters file", () => {
  it("watches every simulated cluster it started, with their labels, through files only", async () => {
    const tls = makeServingTls("fleet");
    for (const name of ["fleet-1", "fleet-2"]) started.push(await startSimulatedCluster({ name, nodes: 1, intervalMs: 2_000, dir, tls }));
    const file = path.join(dir, "clusters.yaml");
    await writeFleetFile(file, started, { intervalMs: 2_000, labels: { env: "demo", "team.example.com/owner": "sre" } });
    const text = readFileSync(file, "utf8");
    const clusters = parseClustersFile(file, text);
    expect(clusters.map((c) => c.name)).toEqual(["fleet-1", "fleet-2"]);
    for (const [i, c] of clusters.entries()) {
      const sim = started[i];
      expect(c).toMatchObject({
        kubeconfig: path.join(dir, `${c.name}.kubeconfig`),
        intervalSeconds: 2,
        openbao: { address: sim.endpoints.url, caFile: path.join(dir, `${c.name}-ca.crt`), transitKey: "k8s-kek" },
        beacon: { healthUrl: `${sim.endpoints.url}/beacon/healthz`, caFile: path.join(dir, `${c.name}-ca.crt`) },
        labels: { env: "demo", "team.example.com/owner": "sre" },
      });
      // The token is in a file of its own that only its owner reads; the clusters file names the file.
      expect(readFileSync(c.openbao!.tokenFile!, "utf8")).toBe(sim.endpoints.openBaoToken);
      expect(statSync(c.openbao!.tokenFile!).mode & 0o777).toBe(0o600);
      expect(text).not.toContain(sim.endpoints.openBaoToken);
      expect(text).not.toContain(sim.endpoints.adminToken);
    }
    // Both simulators answer on their own ports with the one CA they share.
    expect(new Set(started.map((s) => s.endpoints.url)).size).toBe(2);
    expect(started[0].endpoints.caPem).toBe(started[1].endpoints.caPem);
  });
});
