import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as fleetEvents } from "@/app/api/v1/fleet/events/route";
import { GET as fleetList } from "@/app/api/v1/fleet/route";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { setDatabaseUrl } from "@/lib/env";
import { openIncident, refreshSuspects } from "@/lib/incidents/members/membership";
import { inTransaction } from "@/lib/incidents/tx";
import { announceIncidents } from "@/lib/live/bus";
import { publishHealth } from "@/lib/live/registry";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import { readSources } from "@/lib/sources/readings";
import { demoSources } from "@/test/demo-sources";
import { migratedDatabase } from "@/test/incident-db";
import { nextEvent } from "@/test/sse";
import { readFleetRows, subscribeFleet, type FleetPush } from "./live";
import { staleAfterMs } from "./read-fleet";
import { listFleetText } from "@/lib/views/fleet";

// The fleet's pushes on a real PostgreSQL, fed as the monitor feeds them (lib/live/registry.ts publishes each health,
// the incident code announces each change): every row first, then only the rows that changed, never a health.

let db: Awaited<ReturnType<typeof migratedDatabase>>;

function healthOf(name: string, scenario?: string, at = new Date()): ClusterHealth {
  const cluster = new DemoCluster({ nodes: 3, intervalMs: 30_000, now: () => at });
  if (scenario) setScenario(cluster, scenario, true, { node: "master-1" });
  return composeClusterHealth({
    name,
    simulated: true,
    intervalSeconds: 30,
    readings: readSources(demoSources(cluster, { lastSuccess: at.toISOString() })),
    now: at,
  });
}

/** A listener that hands out its pushes one at a time, in order, waiting for the next when there is none yet. */
function listen() {
  const got: FleetPush[] = [];
  const waiters: ((push: FleetPush) => void)[] = [];
  const stop = subscribeFleet((push) => {
    const waiter = waiters.shift();
    if (waiter) waiter(push);
    else got.push(push);
  });
  const next = () => {
    const held = got.shift();
    return held ? Promise.resolve(held) : new Promise<FleetPush>((resolve) => waiters.push(resolve));
  };
  return { next, stop };
}

beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  publishHealth(healthOf("alpha"));
  publishHealth(healthOf("zulu"));
});

afterAll(async () => {
  await db.close();
});

describe("the fleet's pushes", () => {
  it("send every row first, then only the row of the cluster whose state changed", async () => {
    const page = listen();
    const first = await page.next();
    expect(first.full).toBe(true);
    expect(first.rows.map((r) => [r.name, r.state])).toEqual([
      ["alpha", "ok"],
      ["zulu", "ok"],
    ]);

    // A health that changes nothing a viewer sees is not pushed by the registry; one that changes alpha's rows is, and
    // alpha's row is read again but sent only if it changed: the next push is zulu's alone.
    publishHealth(healthOf("alpha"));
    publishHealth(healthOf("zulu", "kms-plugin-unavailable"));
    const changed = await page.next();
    expect(changed.full).toBe(false);
    expect(changed.rows.map((r) => [r.name, r.state])).toEqual([["zulu", "critical"]]);
    expect(changed.rows[0].failing).toEqual([{ component: "KMS plugins", count: 3 }]);
    // The rows, not the health behind them.
    expect(JSON.stringify(changed).length).toBeLessThan(2_000);
    expect(changed.rows[0]).not.toHaveProperty("signals");
    page.stop();
  });

  it("send a cluster's row again when one of its incidents opens", async () => {
    const page = listen();
    await page.next();
    const id = await inTransaction(db.prisma, async (tx) => {
      const at = new Date();
      const { incidentId } = await openIncident(
        tx,
        [
          {
            cluster: "zulu",
            signal: "kms.plugin.unhealthy",
            subject: "master-1/1",
            source: "signal",
            state: "critical",
            detail: "master-1: keyID 1 error: connection refused",
            severity: "critical",
          },
        ],
        { now: at, reason: "(test)" },
      );
      await refreshSuspects(tx, incidentId, at);
      return incidentId;
    });
    // As the incident code announces a committed change.
    announceIncidents([id]);
    const push = await page.next();
    expect(push.rows.map((r) => r.name)).toEqual(["zulu"]);
    expect(push.rows[0].incidents).toMatchObject({ open: 1, top: { id, severity: "critical" } });
    page.stop();
  });

  it("send a cluster's row when Faultline stops reading it, without a health to push it", async () => {
    const page = listen();
    await page.next();
    // Read just inside the bound: fresh now, stale once the bound passes with no new reading.
    publishHealth(healthOf("echo", undefined, new Date(Date.now() - staleAfterMs() + 5_000)));
    const fresh = await page.next();
    expect(fresh.rows.map((r) => [r.name, r.state])).toEqual([["echo", "ok"]]);
    const stale = await page.next();
    expect(stale.rows.map((r) => [r.name, r.state])).toEqual([["echo", "stale"]]);
    page.stop();
  });

  it("start over with every row for a page that comes after the last one left", async () => {
    const page = listen();
    const first = await page.next();
    expect(first.full).toBe(true);
    expect(first.rows.map((r) => [r.name, r.state])).toEqual([
      ["zulu", "critical"],
      ["echo", "stale"],
      ["alpha", "ok"],
    ]);
    page.stop();
  });
});

describe("the fleet's routes", () => {
  it("stream every row first as `event: fleet`, and refuse a parameter", async () => {
    const abort = new AbortController();
    const response = await fleetEvents(new Request("http://x/api/v1/fleet/events", { signal: abort.signal }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const push = JSON.parse(await nextEvent(response.body!.getReader(), "fleet")) as FleetPush;
    abort.abort();
    expect(push.full).toBe(true);
    expect(push.rows.map((r) => r.name)).toEqual(["zulu", "echo", "alpha"]);
    const refused = await fleetEvents(new Request("http://x/api/v1/fleet/events?state=critical"));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ fields: { state: ["takes no parameters: the stream carries every row"] } });
  });

  it("list the rows the filter keeps, and answer a bad filter with a 400 naming it", async () => {
    const listed = await fleetList(new Request("http://x/api/v1/fleet?state=critical,stale"));
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("no-store");
    expect(await listed.json()).toMatchObject({
      count: 2,
      total: 3,
      rows: [
        { name: "zulu", state: "critical" },
        { name: "echo", state: "stale" },
      ],
    });
    const bad = await fleetList(new Request("http://x/api/v1/fleet?state=on-fire&view=summary"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toEqual({
      state: ['"on-fire" is not a state: expected critical, warning, unknown, stale, ok'],
      view: ["unknown parameter: use state and q"],
    });
  });
});

describe("the fleet's rows as the API and the page read them", () => {
  it("never serve a row from before a change once it is announced, and take the reading time from the registry", async () => {
    const rowOf = async (name: string) => (await readFleetRows()).rows.find((r) => r.name === name)!;
    publishHealth(healthOf("tango"));
    expect(await rowOf("tango")).toMatchObject({ state: "ok", incidents: { open: 0 } });

    // An incident written without an announcement is not read per request; announced, the next read has it.
    const id = await inTransaction(db.prisma, async (tx) => {
      const { incidentId } = await openIncident(
        tx,
        [
          {
            cluster: "tango",
            signal: "kms.plugin.unhealthy",
            subject: "master-2/1",
            source: "signal",
            state: "critical",
            detail: "down",
            severity: "critical",
          },
        ],
        { now: new Date(), reason: "(test)" },
      );
      return incidentId;
    });
    expect((await rowOf("tango")).incidents).toEqual({ open: 0, top: null });
    announceIncidents([id]);
    expect((await rowOf("tango")).incidents).toMatchObject({ open: 1, top: { id } });

    // A health pushed (the registry announces it as it keeps it) is in the very next read.
    publishHealth(healthOf("tango", "kms-plugin-unavailable"));
    const rows = (await readFleetRows()).rows;
    expect(rows.filter((r) => r.state === "critical").map((r) => r.name)).toEqual(["zulu", "tango"]);

    // A reading that changes nothing a viewer sees is not pushed; its time is what the row says.
    const later = new Date(Date.now() + 1_000);
    publishHealth(healthOf("tango", "kms-plugin-unavailable", later));
    expect((await rowOf("tango")).readAt).toBe(later.toISOString());
  });

  it("write the API's answer once for every client, and never hand it out after a change is heard", async () => {
    const clock = () => 1_000; // the answer's lifetime never runs out here: only a change makes it new
    const filter = { states: [], terms: ["victor"] };
    const stateOf = (text: string) => (JSON.parse(text) as { rows: { name: string; state: string }[] }).rows.map((r) => [r.name, r.state]);
    publishHealth(healthOf("victor"));
    await readFleetRows();
    const first = await listFleetText(filter, clock);
    expect(stateOf(first)).toEqual([["victor", "ok"]]);
    expect(await listFleetText(filter, clock)).toBe(first);

    publishHealth(healthOf("victor", "kms-plugin-unavailable"));
    expect(stateOf(await listFleetText(filter, clock))).toEqual([["victor", "critical"]]);
  });

  it("turn a row stale in the first read after its reading passes the bound, with no push to say so", async () => {
    const checkedAt = Date.now() - staleAfterMs() + 300;
    publishHealth(healthOf("uniform", undefined, new Date(checkedAt)));
    expect((await readFleetRows()).rows.find((r) => r.name === "uniform")!.state).toBe("ok");
    while (Date.now() <= checkedAt + staleAfterMs()) await new Promise((r) => setTimeout(r, 20));
    expect((await readFleetRows()).rows.find((r) => r.name === "uniform")!.state).toBe("stale");
  });
});
