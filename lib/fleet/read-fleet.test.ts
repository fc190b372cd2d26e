import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { setDatabaseUrl } from "@/lib/env";
import { acknowledgeIncident, resolveIncident } from "@/lib/incidents/members/actions";
import { openIncident, refreshSuspects, type MemberInput } from "@/lib/incidents/members/membership";
import { inTransaction } from "@/lib/incidents/tx";
import { publishHealth, registerCluster } from "@/lib/live/registry";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import { readSources } from "@/lib/sources/readings";
import { commitRound, newMemo } from "@/lib/store/persist";
import { FleetQuery, listFleetText } from "@/lib/views/fleet";
import { demoSources } from "@/test/demo-sources";
import { migratedDatabase, signal } from "@/test/incident-db";
import { setClusterLabels } from "./labels";
import { readFleet } from "./read-fleet";

// The fleet's rows on a real PostgreSQL: health composed from the simulator's own objects as the monitor composes it,
// its signals committed by the store's own commitRound at chosen times, incidents opened, acknowledged and resolved by
// the incident code itself. What the fleet view orders by, and what it says of each cluster's incidents, comes from
// those rows.

let db: Awaited<ReturnType<typeof migratedDatabase>>;
const NOW = Date.now();
const minutesAgo = (m: number) => new Date(NOW - m * 60_000);

/** A cluster's health from a simulated cluster, with a scenario in force, checked at `at`. */
function healthOf(name: string, scenario: string | undefined, at: Date): { health: ClusterHealth; sources: ReturnType<typeof demoSources> } {
  const cluster = new DemoCluster({ nodes: 3, intervalMs: 30_000, now: () => at });
  if (scenario) setScenario(cluster, scenario, true, { node: "master-1" });
  const sources = demoSources(cluster, { lastSuccess: at.toISOString() });
  return { health: composeClusterHealth({ name, simulated: true, intervalSeconds: 30, readings: readSources(sources), now: at }), sources };
}

/** Commits each step (a scenario or none, minutes ago) as the monitor's rounds would, then publishes the last one as now. */
async function history(name: string, steps: [string | undefined, number][]) {
  const memo = newMemo();
  for (const [scenario, ago] of steps) {
    const { health, sources } = healthOf(name, scenario, minutesAgo(ago));
    await commitRound(db.prisma, health, sources, memo, minutesAgo(ago));
  }
  const last = steps[steps.length - 1][0];
  publishHealth(healthOf(name, last, new Date(NOW)).health);
}

const member = (cluster: string, over: Partial<MemberInput> = {}): MemberInput => ({
  cluster,
  signal: "kms.plugin.unhealthy",
  subject: "master-1/1",
  source: "signal",
  state: "critical",
  detail: 'master-1: keyID 1 error: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: connection refused"',
  severity: "critical",
  ...over,
});

async function open(input: MemberInput, at: Date): Promise<number> {
  return inTransaction(db.prisma, async (tx) => {
    const { incidentId } = await openIncident(tx, [input], { now: at, reason: "(test)" });
    await refreshSuspects(tx, incidentId, at);
    return incidentId;
  });
}

let zuluIncident: number;
let limaOpen: number;

beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  // oscar: ok for two hours. alpha: ok again for ten minutes after a failure. zulu: critical for an hour, bravo for five
  // minutes. lima: a warning. kilo: watched, never read. echo: last read ten minutes ago.
  await history("oscar", [[undefined, 120]]);
  await history("alpha", [
    [undefined, 180],
    ["kms-plugin-unavailable", 120],
    [undefined, 10],
  ]);
  await history("zulu", [
    [undefined, 120],
    ["kms-plugin-unavailable", 60],
  ]);
  await history("bravo", [
    [undefined, 120],
    ["kms-plugin-unavailable", 5],
  ]);
  const lima = healthOf("lima", undefined, new Date(NOW));
  publishHealth({ ...lima.health, signals: [...lima.health.signals, signal("wrapper.restarting", "payments/api", "warning", "api: running after 1 restart")] });
  registerCluster("kilo");
  publishHealth(healthOf("echo", undefined, minutesAgo(10)).health);
  // A signal zulu no longer shows keeps its last row (critical since long before): it must not date zulu's state.
  await db.prisma.signalState.create({
    data: {
      cluster: "zulu",
      signal: "kms.plugin.unhealthy",
      subject: "master-9/1",
      state: "critical",
      since: minutesAgo(300),
      detail: "gone",
      updatedAt: minutesAgo(300),
    },
  });
  setClusterLabels([
    { name: "zulu", labels: { env: "prod", region: "eu-west-1" } },
    { name: "bravo", labels: { env: "staging" } },
  ]);

  zuluIncident = await open(member("zulu"), minutesAgo(59));
  // bravo's only incident is resolved: none unresolved.
  await resolveIncident(db.prisma, await open(member("bravo"), minutesAgo(4)), { actor: "test", resolution: "fixed" });
  // lima: an acknowledged critical one and an open warning; the open one needs attention first.
  await acknowledgeIncident(db.prisma, await open(member("lima", { subject: "master-2/1" }), minutesAgo(30)), { actor: "test" });
  limaOpen = await open(
    member("lima", { signal: "wrapper.restarting", subject: "payments/api", state: "warning", severity: "warning", detail: "restarted" }),
    minutesAgo(20),
  );
  // Incidents of a cluster Faultline does not watch (an alert named it) are nobody's row.
  await open(member("not-watched"), minutesAgo(1));
});

afterAll(async () => {
  await db.close();
});

describe("the fleet read from the registry and PostgreSQL", () => {
  it("puts the worst first and, within a state, the one in it longest, dated by the store", async () => {
    const { rows, storeDown } = await readFleet({ now: NOW });
    expect(storeDown).toBeUndefined();
    expect(rows.map((r) => [r.name, r.state])).toEqual([
      ["zulu", "critical"],
      ["bravo", "critical"],
      ["lima", "warning"],
      ["kilo", "unknown"],
      ["echo", "stale"],
      ["oscar", "ok"],
      ["alpha", "ok"],
    ]);
    const since = Object.fromEntries(rows.map((r) => [r.name, r.since]));
    expect(since).toEqual({
      zulu: minutesAgo(60).toISOString(),
      bravo: minutesAgo(5).toISOString(),
      // Nothing stored for lima's warning yet: the reading that saw it.
      lima: new Date(NOW).toISOString(),
      kilo: null,
      echo: minutesAgo(10).toISOString(),
      oscar: minutesAgo(120).toISOString(),
      alpha: minutesAgo(10).toISOString(),
    });
  });

  it("gives each cluster its unresolved incidents and the first one's top suspect, as stored", async () => {
    const { rows } = await readFleet({ now: NOW });
    const of = (name: string) => rows.find((r) => r.name === name)!.incidents;
    const zulu = await db.prisma.incident.findUniqueOrThrow({ where: { id: zuluIncident } });
    // What the incident list shows first for zulu, and the suspect its title names.
    expect(zulu.title).toContain((zulu.suspects as { title: string }[])[0].title);
    const top = (zulu.suspects as { id: string; title: string }[])[0];
    expect(top).toBeDefined();
    expect(of("zulu")).toEqual({ open: 1, top: { id: zuluIncident, severity: "critical", suspect: { id: top.id, title: top.title } } });
    expect(of("bravo")).toEqual({ open: 0, top: null });
    expect(of("lima")).toMatchObject({ open: 2, top: { id: limaOpen, severity: "warning" } });
    expect(of("kilo")).toEqual({ open: 0, top: null });
    expect(rows.map((r) => r.name)).not.toContain("not-watched");
  });

  it("carries the clusters file's labels, which the API filters by with the page's rules", async () => {
    const { rows } = await readFleet({ now: NOW });
    expect(rows.find((r) => r.name === "zulu")!.labels).toEqual({ env: "prod", region: "eu-west-1" });
    expect(rows.find((r) => r.name === "oscar")!.labels).toEqual({});
    const list = async (search: string) => {
      const parsed = FleetQuery.safeParse(new URLSearchParams(search));
      if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
      return JSON.parse(await listFleetText(parsed.data)) as { count: number; total: number; rows: { name: string }[] };
    };
    expect(await list("q=env%3Dprod")).toMatchObject({ count: 1, total: 7, rows: [{ name: "zulu" }] });
    expect((await list("state=critical,ok")).rows.map((r) => r.name)).toEqual(["zulu", "bravo", "oscar", "alpha"]);
    expect((await list("state=critical&q=staging")).rows.map((r) => r.name)).toEqual(["bravo"]);
  });

  it("refuses an API filter it cannot read, naming the parameter", () => {
    const issues = (search: string) => {
      const parsed = FleetQuery.safeParse(new URLSearchParams(search));
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues("state=burning")).toEqual(['state: "burning" is not a state: expected critical, warning, unknown, stale, ok']);
    expect(issues("state=ok&state=critical")).toEqual(["state: give it once"]);
    expect(issues("cluster=zulu")).toEqual(["cluster: unknown parameter: use state and q"]);
    expect(issues(`q=${"a".repeat(201)}`)).toEqual(["q: at most 200 characters"]);
    expect(issues("state=ok&q=env%3Dprod")).toEqual([]);
  });
});
