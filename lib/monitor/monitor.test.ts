import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/db/generated/client";
import { migrate } from "@/lib/db/migrate";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import type { DemoServer } from "@/lib/demo/cluster/server";
import { healthDigest } from "@/lib/live/registry";
import { createClusterLease } from "./lease";
import { shareHealth } from "./replica-link";
import { createTestDatabase } from "@/test/database";
import { pollUntil as pollUntilOn, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { followOnce, pollOnce, type Monitored } from "./monitor";
import { newMemo, persistRound } from "@/lib/store/persist";

// The monitor against the simulated cluster over HTTP, with the real client: what the page will show.

let sim: DemoMonitor;
let server: DemoServer;
let entry: Monitored;

beforeAll(async () => {
  sim = await startDemoMonitor();
  ({ server, entry } = sim);
});
afterAll(() => sim.stop());

const pollUntil = (check: Parameters<typeof pollUntilOn>[1], what: string) => pollUntilOn(entry, check, what);

describe("monitor", () => {
  it("reads a healthy cluster with every source up", async () => {
    const health = await pollOnce(entry);
    expect(health.sources.filter((s) => !s.up)).toEqual([]);
    expect(health.summary.state).toBe("ok");
    expect(health.matrix?.cells.map((c) => `${c.node}/${c.keyID}:${c.status}`)).toEqual(["master-0/1:healthy", "master-1/1:healthy", "master-2/1:healthy"]);
    expect(health.signals.filter((s) => s.state === "critical")).toEqual([]);
  });

  it("turns the plugin's cell unhealthy, raises its signal, and notes that the ClusterOperator disagrees", async () => {
    // The API server behind the kubeconfig is master-0's instance, so strike master-0.
    setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-0" });
    const health = await pollUntil((h) => h.summary.state === "degraded", "the degraded rollup");
    setScenario(server.cluster, "kms-plugin-unavailable", false);
    await pollUntil((h) => h.summary.state === "ok", "the healthy rollup again");
    expect(health.matrix?.cells.find((c) => c.node === "master-0")).toMatchObject({ status: "error", detail: expect.stringContaining("connection refused") });
    expect(health.summary).toMatchObject({ state: "degraded", line: expect.stringMatching(/^master-0: keyID 1/) });
    expect(health.signals).toContainEqual(expect.objectContaining({ id: "kms.plugin.unhealthy", state: "critical" }));
    expect(health.signals).toContainEqual(expect.objectContaining({ id: "apiserver.kms-providers.failing", state: "critical" }));
    expect(health.disagreement).toMatch(/Degraded=False/);
  });

  it("reads the beacon through the bridge's health endpoint", async () => {
    expect((await pollOnce(entry)).signals.find((s) => s.id === "beacon.unreachable")?.state).toBe("ok");
    setScenario(server.cluster, "beacon-down", true);
    const health = await pollOnce(entry);
    setScenario(server.cluster, "beacon-down", false);
    expect(health.signals.find((s) => s.id === "beacon.unreachable")).toMatchObject({ state: "critical", detail: expect.stringContaining("HTTP 503") });
  });

  it("does not call the Transit key missing while OpenBao is sealed", async () => {
    setScenario(server.cluster, "openbao-sealed", true);
    const health = await pollOnce(entry);
    setScenario(server.cluster, "openbao-sealed", false);
    expect(health.signals.find((s) => s.id === "openbao.sealed")?.state).toBe("critical");
    expect(health.signals.filter((s) => s.id === "transit.key.missing" && s.state === "critical")).toEqual([]);
  });

  it("lets a follower process serve the health the leader stored, without reading the cluster", async () => {
    const database = await createTestDatabase();
    await migrate(database.url);
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) });
    try {
      setScenario(server.cluster, "kms-plugin-unavailable", true, { node: "master-2" });
      const led = await pollUntil((h) => h.summary.state === "degraded", "the degraded rollup");
      await persistRound(prisma, led, entry.sources, newMemo(), new Date());
      setScenario(server.cluster, "kms-plugin-unavailable", false);
      await pollUntil((h) => h.summary.state === "ok", "the healthy rollup again");
      const follower: Monitored = { ...entry, sources: {}, memo: newMemo(), health: undefined };
      await followOnce(follower, prisma);
      const statuses = (h: typeof led) => h.matrix?.cells.map((c) => `${c.node}:${c.status}`);
      expect(statuses(follower.health!)).toEqual(statuses(led));
      expect(follower.health!.summary.state).toBe("degraded");
      // Before any leader shared its health (an older version leads): as read at the sources' last success, never the follower's clock.
      expect(follower.health!.replica).toEqual({ role: "follower" });
      expect(Date.parse(follower.health!.checkedAt)).toBeLessThanOrEqual(Date.parse(led.checkedAt));
      // A leader that shares its health: the follower serves it whole, as read by the leader.
      const lease = createClusterLease(database.url, entry.target.cluster.name, { holder: "leader-of-test" });
      await lease.check();
      await shareHealth(prisma, "leader-of-test", lease.fence()!, led, healthDigest(led));
      await followOnce(follower, prisma);
      expect(follower.health!.checkedAt).toBe(led.checkedAt);
      expect(follower.health!.summary).toEqual(led.summary);
      expect(statuses(follower.health!)).toEqual(statuses(led));
    } finally {
      await prisma.$disconnect();
      await database.drop();
    }
  });

  it("keeps the last-known state and says since when when the cluster API is down", async () => {
    await server.stop();
    try {
      const health = await pollUntil((h) => h.sources.find((s) => s.name === "kubeapiserver")?.up === false, "the cluster API to be down");
      const kube = health.sources.find((s) => s.name === "kubeapiserver")!;
      expect(kube).toMatchObject({ up: false, downSince: expect.any(String) });
      expect(health.matrix?.cells).toHaveLength(3);
      expect(health.summary).toMatchObject({ state: "unknown", line: expect.stringContaining("showing the last known state") });
      expect(health.signals.find((s) => s.id === "openbao.unreachable")?.state).toBe("critical");
    } finally {
      await server.start();
    }
  });
});
