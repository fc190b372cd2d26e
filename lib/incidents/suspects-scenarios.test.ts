import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { ClusterConfig } from "@/lib/clusters/config";
import { pollOnce, type Monitored } from "@/lib/monitor/monitor";
import { newMemo } from "@/lib/monitor/persist";
import { SimCluster } from "@/lib/sim/cluster";
import { kubeconfigFor } from "@/lib/sim/kubeconfig";
import { SCENARIOS, setScenario } from "@/lib/sim/scenarios";
import { SimServer } from "@/lib/sim/server";
import { rankSuspects } from "./suspects";

let server: SimServer;
let dir: string;
let entry: Monitored;

beforeAll(async () => {
  server = new SimServer({ cluster: new SimCluster({ nodes: 3, intervalMs: 60_000 }) });
  const endpoints = await server.start();
  dir = mkdtempSync(path.join(tmpdir(), "faultline-suspects-"));
  const kubeconfig = path.join(dir, "demo.kubeconfig");
  writeFileSync(kubeconfig, kubeconfigFor("demo", endpoints));
  entry = {
    target: { cluster: ClusterConfig.parse({ name: "demo", kubeconfig, intervalSeconds: 30, openbao: { address: endpoints.url, transitKey: "k8s-kek" } }), openBaoToken: endpoints.openBaoToken },
    simulated: true,
    sources: {},
    memo: newMemo(),
    role: "alone",
  };
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Signals the demo cluster raises tell these failure modes apart on their own (others share every signal
// and detail word with a neighbour; measured: 17 of the 37 scenarios that raise a signal rank first).
const FIRST = [
  "openbao-sealed",
  "openbao-tls-certificate-expired",
  "transit-key-deleted",
  "transit-key-soft-deleted",
  "clock-skew",
  "registry-state-missing",
  "registry-state-corrupt-or-rolled-back",
  "jwks-or-oidc-discovery-unreachable",
  "certificate-identity-drift",
  "kms-systemd-ordering-wrong",
  "webhook-misbehaving",
  "ebpf-image-compromised",
];

describe("suspects for the demo cluster's scenarios", () => {
  it("puts the injected failure mode first where the live signals can tell", async () => {
    const ranks: Record<string, number> = {};
    for (const scenario of SCENARIOS.filter((s) => s.catalog)) {
      setScenario(server.cluster, scenario.id, true, { node: "master-0" });
      const health = await pollOnce(entry);
      setScenario(server.cluster, scenario.id, false);
      const active = health.signals.filter((s) => s.state !== "ok");
      if (active.length === 0) continue;
      const ranked = rankSuspects({ active: active.map((s) => ({ signal: s.id, subject: s.subject, state: s.state, detail: s.detail })), entries: getCatalog().entries, limit: 100 });
      ranks[scenario.catalog!] = ranked.findIndex((r) => r.id === scenario.catalog);
    }
    expect(Object.fromEntries(FIRST.map((id) => [id, ranks[id]]))).toEqual(Object.fromEntries(FIRST.map((id) => [id, 0])));
    expect(Object.values(ranks).filter((r) => r === 0).length).toBeGreaterThanOrEqual(17);
  }, 120_000);
});
