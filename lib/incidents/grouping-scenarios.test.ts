import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { pollOnce } from "@/lib/monitor/monitor";
import { commitRound, newMemo } from "@/lib/store/persist";
import { migratedDatabase } from "@/test/incident-db";
import { pollUntil, settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { judgeCommitted, sweepIncidents } from "./rounds/apply-round";
import { receiveDelivery } from "./alerts/webhook";
import { AlertmanagerPayload } from "./alerts/alertmanager";
import { rankSuspects } from "./suspects/suspects";

// One failure, one incident, the right title: the demo cluster's real API server and OpenBao, the real monitor
// round (pollOnce), the store's commit and the rules' judgement on a real PostgreSQL, with the default rules.
// Only the judge's clock is given, so 600 s of rounds pass without waiting; each case has its own cluster name.

let sim: DemoMonitor;
let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  [sim, db] = await Promise.all([startDemoMonitor(), migratedDatabase()]);
});
afterAll(async () => {
  await sim?.stop();
  await db?.close();
});

const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000);
const catalogTitle = (id: string) => getCatalog().entries.find((e) => e.id === id)!.title;

/** Monitor rounds every 15 s of judge time from `from` to `to`: poll the demo cluster, commit, judge. */
async function rounds(cluster: string, memo: ReturnType<typeof newMemo>, from: number, to: number): Promise<void> {
  for (let s = from; s <= to; s += 15) {
    const health = { ...(await pollOnce(sim.entry)), name: cluster };
    await judgeCommitted(db.prisma, await commitRound(db.prisma, health, sim.entry.sources, memo, at(s)));
  }
}
const incidentsOf = (cluster: string) =>
  db.prisma.incident.findMany({ where: { cluster }, include: { members: true, events: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } });
const stateOf = (h: Awaited<ReturnType<typeof pollOnce>>, id: string) => h.signals.find((s) => s.id === id)?.state;

describe("one failure, one incident, the right title", () => {
  it("(a) the API server down: one incident, 'Cluster API unreachable', no 'OpenBao sealed' even after 600 s; it resolves once the API is back", async () => {
    const memo = newMemo();
    await settledPoll(sim.entry);
    await sim.server.stop();
    try {
      await pollUntil(sim.entry, (h) => stateOf(h, "cluster.api.unreachable") === "critical", "the cluster API to be unreachable", 15_000);
      await rounds("case-a", memo, 0, 600);
      const incidents = await incidentsOf("case-a");
      expect(incidents.map((i) => i.title)).toEqual(["Cluster API unreachable (cluster)"]);
      // OpenBao and the bridge share the demo API server's host: unreachable with it, and unknown because of it.
      expect(incidents[0].members.map((m) => m.signal).sort()).toEqual([
        "beacon.unreachable",
        "cluster.api.unreachable",
        "openbao.sealed",
        "openbao.standby",
        "openbao.uninitialized",
        "openbao.unreachable",
      ]);
      expect(incidents[0].members.find((m) => m.signal === "cluster.api.unreachable")?.detail).toMatch(/no Kubernetes read answered since .*ECONNREFUSED/);
    } finally {
      if (!sim.server.running) await sim.server.start();
    }
    await pollUntil(
      sim.entry,
      (h) => stateOf(h, "cluster.api.unreachable") === "ok" && stateOf(h, "openbao.unreachable") === "ok",
      "the cluster API back",
      30_000,
    );
    await rounds("case-a", memo, 615, 960);
    expect((await incidentsOf("case-a")).map((i) => [i.title, i.status])).toEqual([["Cluster API unreachable (cluster)", "resolved"]]);
  }, 120_000);

  it("(b) OpenBao sealed: one incident titled from the openbao-sealed suspect, no standby incident after 600 s", async () => {
    const memo = newMemo();
    setScenario(sim.server.cluster, "openbao-sealed", true);
    try {
      await pollUntil(sim.entry, (h) => stateOf(h, "openbao.sealed") === "critical", "OpenBao sealed");
      await rounds("case-b", memo, 0, 600);
    } finally {
      setScenario(sim.server.cluster, "openbao-sealed", false);
      await settledPoll(sim.entry);
    }
    const incidents = await incidentsOf("case-b");
    expect(incidents.map((i) => i.title)).toEqual([`${catalogTitle("openbao-sealed")} (openbao)`]);
    expect((incidents[0].suspects as { id: string }[])[0].id).toBe("openbao-sealed");
    // The plugins report "Vault is sealed" once their next report is due: they join it, as symptoms of the same cause.
    expect(incidents[0].members.map((m) => m.signal).filter((s) => s !== "kms.plugin.unhealthy" && s !== "apiserver.kms-providers.failing")).toEqual([
      "openbao.sealed",
    ]);
  }, 120_000);

  it("(c) a token expiry does not reopen a plugin alert incident resolved 14 min ago for another cause", async () => {
    const alert = (status: "firing" | "resolved", endsAt?: string) =>
      AlertmanagerPayload.parse({
        version: "4",
        groupKey: '{}:{alertname="KmsPluginSocketStale"}',
        status,
        receiver: "faultline",
        alerts: [
          {
            status,
            labels: { alertname: "KmsPluginSocketStale", cluster: "case-c", signal: "kms.plugin.unhealthy", subject: "master-0/1", severity: "critical" },
            annotations: { summary: "KMS plugin socket stale on master-0", faultline_catalog_id: "kms-stale-socket" },
            startsAt: at(-1500).toISOString(),
            ...(endsAt ? { endsAt } : {}),
            fingerprint: "c0ffee",
          },
        ],
      });
    await receiveDelivery(db.prisma, alert("firing"), undefined, { now: at(-1500) });
    await receiveDelivery(db.prisma, alert("resolved", at(-1200).toISOString()), undefined, { now: at(-1140) });
    expect(await sweepIncidents(db.prisma, at(-840))).toHaveLength(1);
    const [old] = await incidentsOf("case-c");
    expect(old).toMatchObject({ status: "resolved", resolvedAt: at(-840) });
    expect((old.suspects as { id: string }[])[0].id).toBe("kms-stale-socket");

    setScenario(sim.server.cluster, "jwt-expired-apiserver-down", true);
    try {
      const health = await pollUntil(sim.entry, (h) => stateOf(h, "apiserver.kms-providers.failing") === "critical", "the token expiry");
      // What makes it another cause: the stale socket is none of the expired token's own top 3 suspects.
      const expired = health.signals.find((s) => s.id === "kms.plugin.unhealthy" && s.subject === "master-0/1")!;
      const own = rankSuspects({
        active: [{ signal: expired.id, subject: expired.subject, state: expired.state, detail: expired.detail }],
        entries: getCatalog().entries,
        limit: 3,
      });
      expect(own.map((s) => s.id)).not.toContain("kms-stale-socket");
      await rounds("case-c", newMemo(), 0, 120);
    } finally {
      setScenario(sim.server.cluster, "jwt-expired-apiserver-down", false);
      await settledPoll(sim.entry);
    }
    const [before, fresh, ...more] = await incidentsOf("case-c");
    expect(more).toEqual([]);
    expect(before).toMatchObject({ id: old.id, status: "resolved", reopenCount: 0, title: "KMS plugin socket stale on master-0" });
    expect(fresh.members.map((m) => m.subject)).toContain("master-0/1");
    const top = (fresh.suspects as { id: string; title: string }[])[0];
    expect(fresh.title.startsWith(`${top.title} (`)).toBe(true);
  }, 120_000);

  it("(d) an incident opened by a symptom changes its title when its top suspect changes, with a title_changed event", async () => {
    const memo = newMemo();
    setScenario(sim.server.cluster, "kms-static-pod-image-unavailable", true, { node: "master-0" });
    try {
      await pollUntil(sim.entry, (h) => h.signals.some((s) => s.id === "kms.plugin.unhealthy" && s.state === "critical"), "the plugin error");
      await rounds("case-d", memo, 0, 45);
    } finally {
      setScenario(sim.server.cluster, "kms-static-pod-image-unavailable", false);
    }
    const [first] = await incidentsOf("case-d");
    const firstTop = (first.suspects as { id: string; title: string }[])[0];
    expect(first.title.startsWith(`${firstTop.title} (`)).toBe(true);
    // The cause shows itself later: every plugin's token expired, the API server's own check fails.
    setScenario(sim.server.cluster, "jwt-expired-apiserver-down", true);
    try {
      await pollUntil(sim.entry, (h) => stateOf(h, "apiserver.kms-providers.failing") === "critical", "the token expiry");
      await rounds("case-d", memo, 60, 120);
    } finally {
      setScenario(sim.server.cluster, "jwt-expired-apiserver-down", false);
      await settledPoll(sim.entry);
    }
    const incidents = await incidentsOf("case-d");
    expect(incidents).toHaveLength(1);
    const top = (incidents[0].suspects as { id: string; title: string }[])[0];
    expect(top.id).not.toBe(firstTop.id);
    expect(incidents[0].title.startsWith(`${top.title} (`)).toBe(true);
    const changes = incidents[0].events.filter((e) => e.kind === "title_changed").map((e) => e.payload);
    expect(changes.at(-1)).toEqual({ before: first.title, after: incidents[0].title, why: `top suspect ${top.id}` });
  }, 120_000);

  it("(e) a plugin crash-looping on one node, down one report and up the next: one incident, titled from the crash-loop suspect", async () => {
    const memo = newMemo();
    const pluginState = (h: Awaited<ReturnType<typeof pollOnce>>) =>
      h.signals.find((s) => s.id === "kms.plugin.unhealthy" && s.subject.startsWith("master-0/"))?.state ?? "ok";
    setScenario(sim.server.cluster, "kms-plugin-crash-loop", true, { node: "master-0" });
    // Each report flips the plugin. The simulator's own reporters write too (once a minute): one landing between a
    // round and the test's report flips the plugin back, so the test reports until the monitor sees the other state.
    const flip = async (from: string) => {
      for (let reports = 0; reports < 3; reports++) {
        sim.server.cluster.report();
        const health = await settledPoll(sim.entry);
        if (pluginState(health) !== from) return health;
      }
      return pollUntil(sim.entry, (h) => pluginState(h) !== from, `the plugin no longer ${from}`);
    };
    try {
      // No run of the same state lasts the debounce (3 rounds or 60 s).
      let state = pluginState(await settledPoll(sim.entry));
      for (let s = 0; s <= 300; s += 30) {
        const health = await flip(state);
        state = pluginState(health);
        await judgeCommitted(db.prisma, await commitRound(db.prisma, { ...health, name: "case-e" }, sim.entry.sources, memo, at(s)));
      }
    } finally {
      setScenario(sim.server.cluster, "kms-plugin-crash-loop", false);
      sim.server.cluster.report();
      await settledPoll(sim.entry);
    }
    const incidents = await incidentsOf("case-e");
    expect(incidents).toHaveLength(1);
    const top = (incidents[0].suspects as { id: string; title: string }[])[0];
    expect(top.id).toBe("kms-plugin-crash-loop");
    expect(incidents[0].title.startsWith(`${catalogTitle("kms-plugin-crash-loop")} (`)).toBe(true);
    expect(incidents[0].events.filter((e) => e.kind === "signal_transition").length).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
