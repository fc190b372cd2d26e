import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { commitRound, newMemo } from "@/lib/store/persist";
import type { pollOnce } from "@/lib/monitor/monitor";
import { migratedDatabase } from "@/test/incident-db";
import { settledPoll, startDemoMonitor, type DemoMonitor } from "@/test/demo-monitor";
import { evalClock } from "@/test/diagnosis/eval";
import { applyWorld, type World } from "@/test/diagnosis/world";
import { judgeCommitted, rankTrigger } from "./rounds/apply-round";
import { namesACause } from "./suspects/suspects";

// One failure, one incident, when what names the cause and what only says "failed" do not fire in the same round: a
// sealed OpenBao seen through kube-apiserver's kms-providers check, whose text the plugin's Status redacts. The demo
// cluster's real API server and OpenBao read by the real monitor, committed and judged on a real PostgreSQL with the
// default rules. One clock for the cluster, the monitor and the judge, moved 15 s a round without waiting, so stopped
// reporters go stale as they would; each case has its own cluster name.

const clock = evalClock();
let sim: DemoMonitor;
let db: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  [sim, db] = await Promise.all([startDemoMonitor({ now: clock.now }), migratedDatabase()]);
});
afterAll(async () => {
  await sim?.stop();
  await db?.close();
});

type Health = Awaited<ReturnType<typeof pollOnce>>;
const NODES = ["master-0", "master-1", "master-2"];
const stopped = (nodes = NODES) => nodes.map((node) => ({ node, reporterRunning: false }));
// What the plugin's Status says whatever the cause (dc-tec/openbao-kubernetes-kms internal/kmsv2/server.go, HealthUnhealthy).
const redacted = [{ node: "*", health: "unhealthy" as const, detail: "unhealthy" }];
const IMAGE_PULL =
  'Failed to pull image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/dc-tec/openbao-kubernetes-kms:v0.9.0": not found';
const SEALED_TITLE = `${getCatalog().entries.find((e) => e.id === "openbao-sealed")!.title} (openbao)`;

/**
 * A case on its own cluster name, from a healthy cluster (the reports an earlier case left are rewritten): worlds
 * applied at given seconds, monitor rounds every 15 s, each committed and judged.
 */
async function scenarioCase(cluster: string) {
  applyWorld(sim.server.cluster, {});
  for (let round = 0; round < 3; round++) {
    clock.advance(15_000);
    sim.server.cluster.report();
    if ((await settledPoll(sim.entry, 5000, clock.now)).signals.every((s) => s.state === "ok")) break;
  }
  const memo = newMemo();
  const start = clock.now().getTime() + 15_000;
  let last: Health | undefined;
  return {
    /** Rounds at `from`, `from` + 15 s, ... up to `to` seconds after the case began, in the given world. */
    async rounds(world: World, from: number, to: number): Promise<Health> {
      applyWorld(sim.server.cluster, world);
      for (let s = from; s <= to; s += 15) {
        clock.advance(start + s * 1000 - clock.now().getTime());
        sim.server.cluster.report();
        last = { ...(await settledPoll(sim.entry, 5000, clock.now)), name: cluster };
        await judgeCommitted(db.prisma, await commitRound(db.prisma, last, sim.entry.sources, memo, clock.now()));
      }
      return last!;
    },
    at: (s: number) => new Date(start + s * 1000),
    incidents: () =>
      db.prisma.incident.findMany({ where: { cluster }, include: { members: true, events: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } }),
  };
}

const keys = (members: { signal: string; subject: string }[]) => members.map((m) => `${m.signal} ${m.subject}`).sort();
const topOf = (incident: { suspects: unknown }) => (incident.suspects as { id: string }[])[0]?.id;
/** Every (signal, subject) that fired or went unknown in a round: what one incident per failure must hold. */
const firing = (h: Health) => keys(h.signals.filter((s) => s.state === "critical" || s.state === "unknown").map((s) => ({ signal: s.id, subject: s.subject })));

describe("one incident per failure, whatever comes first", () => {
  it("the root signal seen 45 s after the redacted kms-providers check joins its incident and renames it; the stale reports join later: one incident", async () => {
    const c = await scenarioCase("root-late");
    // The plugins' Status turns unhealthy first; Faultline reads OpenBao's own health as sealed 45 s on.
    await c.rounds({ plugins: redacted, nodeState: stopped() }, 0, 30);
    const [before] = await c.incidents();
    expect(keys(before.members)).toEqual(["apiserver.kms-providers.failing api"]);
    expect(before.members[0].detail).toMatch(/got unexpected healthz status: unhealthy/);
    expect(topOf(before)).not.toBe("openbao-sealed");

    const last = await c.rounds({ openbao: "sealed", plugins: redacted, nodeState: stopped() }, 45, 900);
    const incidents = await c.incidents();
    expect(incidents.map((i) => i.title)).toEqual([SEALED_TITLE]);
    const [one] = incidents;
    expect(topOf(one)).toBe("openbao-sealed");
    // Every member key that fired is here: the check, OpenBao's health, and the plugins' reports gone stale (unknown).
    expect(keys(one.members)).toEqual(firing(last));
    expect(keys(one.members)).toEqual(expect.arrayContaining(["openbao.sealed openbao", "kms.plugin.unhealthy master-0/1"]));
    const joined = one.events.find((e) => e.kind === "member_joined" && (e.payload as { signal: string }).signal === "openbao.sealed")!;
    expect(joined.at).toEqual(c.at(75));
    // Renamed in the round the root joined, on the timeline.
    const renamed = one.events.filter((e) => e.kind === "title_changed").at(-1)!;
    expect(renamed.at).toEqual(c.at(75));
    expect(renamed.payload).toEqual({ before: before.title, after: SEALED_TITLE, why: "top suspect openbao-sealed" });
  }, 180_000);

  it("a title the rules did not make stays when the root joins; the top suspect still follows the root", async () => {
    const c = await scenarioCase("root-late-titled");
    await c.rounds({ plugins: redacted, nodeState: stopped() }, 0, 30);
    const [opened] = await c.incidents();
    await db.prisma.incident.update({ where: { id: opened.id }, data: { title: "API servers unready on all masters" } });
    await c.rounds({ openbao: "sealed", plugins: redacted, nodeState: stopped() }, 45, 120);
    const incidents = await c.incidents();
    expect(incidents.map((i) => i.title)).toEqual(["API servers unready on all masters"]);
    expect(topOf(incidents[0])).toBe("openbao-sealed");
    expect(keys(incidents[0].members)).toEqual(["apiserver.kms-providers.failing api", "openbao.sealed openbao"]);
    expect(incidents[0].events.some((e) => e.kind === "title_changed" && e.at >= c.at(45))).toBe(false);
  }, 180_000);

  it("a plugin that starts failing, redacted, 5 minutes after the sealed incident opened joins it", async () => {
    const c = await scenarioCase("symptom-late");
    await c.rounds({ openbao: "sealed", plugins: redacted, nodeState: stopped() }, 0, 285);
    const [sealed] = await c.incidents();
    expect(sealed.title).toBe(SEALED_TITLE);
    // master-2's reporter writes again: its plugin says only "unhealthy".
    const last = await c.rounds({ openbao: "sealed", plugins: redacted, nodeState: stopped(["master-0", "master-1"]) }, 300, 600);
    const plugin = last.signals.find((s) => s.id === "kms.plugin.unhealthy" && s.subject === "master-2/1")!;
    expect(plugin).toMatchObject({ state: "critical", detail: expect.stringMatching(/unhealthy/) });
    // What makes only the new rule place it: it names no cause, and its own top 3 do not hold OpenBao sealed.
    expect(namesACause([plugin.detail])).toBe(false);
    expect(rankTrigger({ signal: plugin.id, subject: plugin.subject, state: plugin.state, detail: plugin.detail }).slice(0, 3)).not.toContain("openbao-sealed");

    const incidents = await c.incidents();
    expect(incidents.map((i) => i.title)).toEqual([SEALED_TITLE]);
    expect(keys(incidents[0].members)).toEqual(firing(last));
    const joined = incidents[0].members.find((m) => m.signal === "kms.plugin.unhealthy" && m.subject === "master-2/1")!;
    expect(joined.joinedAt.getTime()).toBeGreaterThanOrEqual(c.at(300).getTime());
  }, 180_000);

  it("another failure beside the sealed OpenBao opens its own: a webhook deleted within the group window, a plugin image pull failing minutes later", async () => {
    const c = await scenarioCase("other-failures");
    await c.rounds({ openbao: "sealed", plugins: redacted, nodeState: stopped() }, 0, 45);
    await c.rounds({ openbao: "sealed", plugins: redacted, nodeState: stopped(), stack: { webhookPresent: false } }, 60, 285);
    const pull = [...redacted, { node: "master-2", health: "error" as const, detail: IMAGE_PULL }];
    const last = await c.rounds({ openbao: "sealed", plugins: pull, nodeState: stopped(["master-0", "master-1"]), stack: { webhookPresent: false } }, 300, 600);
    const plugin = last.signals.find((s) => s.id === "kms.plugin.unhealthy" && s.subject === "master-2/1")!;
    expect(plugin.state).toBe("critical");
    expect(namesACause([plugin.detail])).toBe(true);

    const incidents = await c.incidents();
    expect(incidents.map((i) => [topOf(i), i.title])).toEqual([
      ["openbao-sealed", SEALED_TITLE],
      ["webhook-misbehaving", expect.any(String)],
      ["kms-static-pod-image-unavailable", expect.any(String)],
    ]);
    const [sealed, webhook, image] = incidents;
    expect(keys(webhook.members).every((k) => k.startsWith("webhook."))).toBe(true);
    expect(keys(image.members)).toContain("kms.plugin.unhealthy master-2/1");
    expect(keys(sealed.members).filter((k) => k.startsWith("webhook.") || k.endsWith("master-2/1"))).toEqual([]);
  }, 180_000);
});
