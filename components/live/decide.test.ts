import { describe, expect, it } from "vitest";
import { composeClusterHealth } from "@/lib/signals/cluster-health";
import type { Sources } from "@/lib/sources/sources";
import { readSources } from "@/lib/sources/readings";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { diffHealth } from "@/lib/live/health-push";
import type { FleetRow } from "@/lib/fleet/fleet-row";
import { applyFleetPush, concernsPage, nextHealth, parseFleetPush, parseHealthPush, parseIncidentPush, signalsKey } from "./decide";

// What the browser does with a push: the cluster's health is built from the demo cluster's real objects,
// the push from lib/live/health-push (the server's own diff).

function healthOf(cluster: DemoCluster) {
  const up = (name: string, value: unknown) => ({ name, up: true, value });
  const sources = {
    kubeapiserver: up("kubeapiserver", cluster.object("operator.openshift.io", "kubeapiservers", "cluster")),
    nodes: up("nodes", cluster.objects("", "nodes")),
  } as Sources;
  return composeClusterHealth({ name: "demo", simulated: true, intervalSeconds: 30, readings: readSources(sources), now: cluster.now() });
}

describe("a pushed change to a cluster's health", () => {
  const cluster = new DemoCluster({ nodes: 3, intervalMs: 30_000 });
  const before = healthOf(cluster);
  setScenario(cluster, "kms-plugin-unavailable", true, { node: "master-1" });
  const after = healthOf(cluster);

  it("is applied to the cached health when it follows its version: the red cell appears without a fetch", () => {
    const step = nextHealth({ ...before, version: 7 }, diffHealth(before, after, 8, 7));
    expect(step.kind).toBe("apply");
    if (step.kind !== "apply") return;
    expect(step.data.version).toBe(8);
    expect(step.data.summary).toEqual(after.summary);
    expect(step.data.signals.find((s) => s.id === "kms.plugin.unhealthy" && s.state !== "ok")).toBeDefined();
    expect(before.summary.state).not.toBe(after.summary.state);
  });

  it("is ignored when the cache already has that version or a newer one", () => {
    expect(nextHealth({ ...after, version: 8 }, diffHealth(before, after, 8, 7))).toEqual({ kind: "ignore" });
    expect(nextHealth({ ...after, version: 9 }, diffHealth(before, after, 8, 7))).toEqual({ kind: "ignore" });
  });

  it("makes the page fetch the whole health once when it cannot follow: nothing cached, no version, or a missed push", () => {
    const push = diffHealth(before, after, 8, 7);
    expect(nextHealth(undefined, push)).toEqual({ kind: "fetch" });
    expect(nextHealth(before, push)).toEqual({ kind: "fetch" });
    expect(nextHealth({ ...before, version: 5 }, push)).toEqual({ kind: "fetch" });
  });

  it("that carries the whole health is applied even when nothing is cached yet", () => {
    const step = nextHealth(undefined, diffHealth(undefined, after, 3, null));
    expect(step.kind).toBe("apply");
    if (step.kind === "apply") expect(step.data).toMatchObject({ version: 3, summary: after.summary });
  });

  it("is read only when it is one, for this cluster", () => {
    const text = JSON.stringify(diffHealth(before, after, 8, 7));
    expect(parseHealthPush(text, "demo")?.version).toBe(8);
    expect(parseHealthPush(text, "prod")).toBeUndefined();
    for (const bad of [
      "",
      "not json",
      "null",
      "[]",
      '{"cluster":"demo","version":-1,"base":null,"patch":{}}',
      '{"cluster":"demo","version":1,"base":"0","patch":{}}',
      '{"cluster":"demo","version":1,"base":null}',
    ])
      expect(parseHealthPush(bad, "demo"), bad).toBeUndefined();
  });
});

describe("a pushed change to incidents", () => {
  it("names the incidents that changed; anything else is no push", () => {
    expect(parseIncidentPush('{"version":3,"ids":[4,5]}')).toEqual([4, 5]);
    expect(parseIncidentPush('{"version":3,"ids":[]}')).toEqual([]);
    for (const bad of ["", "{", '{"ids":[4]}', '{"version":3,"ids":"4"}', '{"version":3,"ids":["4"]}', '{"version":3,"ids":[0]}', '{"version":3,"ids":[1.5]}'])
      expect(parseIncidentPush(bad), bad).toBeUndefined();
  });

  it("makes an incident's page refetch only when it names that incident, and a list when it names any", () => {
    expect(concernsPage([4], [5])).toBe(false);
    expect(concernsPage([4, 5], [5])).toBe(true);
    expect(concernsPage([9], undefined)).toBe(true);
    expect(concernsPage([], undefined)).toBe(false);
  });
});

describe("an incident's signals compared with the cluster's", () => {
  const a = { signal: "kms.plugin.unhealthy", subject: "master-1/1", state: "critical", detail: "unhealthy" };
  const b = { signal: "kms.plugin.unhealthy", subject: "master-2/1", state: "ok", detail: "healthy" };
  it("are the same in any order, and differ when one state or detail does", () => {
    expect(signalsKey([a, b])).toBe(signalsKey([b, a]));
    expect(signalsKey([a, b])).not.toBe(signalsKey([a, { ...b, state: "critical" }]));
    expect(signalsKey([a])).not.toBe(signalsKey([a, b]));
  });
});

describe("a fleet push", () => {
  const fleetRow = (name: string, state: FleetRow["state"]): FleetRow => ({
    name,
    simulated: true,
    labels: { env: "demo" },
    state,
    since: "2026-11-23T03:00:00.000Z",
    line: "3 nodes, 3 plugin reports healthy and fresh",
    failing: state === "ok" ? [] : [{ component: "KMS plugins", count: 1 }],
    moreFailing: 0,
    readAt: "2026-11-23T03:00:05.000Z",
    incidents: { open: 0, top: null },
  });
  const held = { rows: [fleetRow("alpha", "ok"), fleetRow("zulu", "ok")] };

  it("replaces the rows it names, keeps the others and adds a cluster the page did not have", () => {
    const push = parseFleetPush(JSON.stringify({ full: false, rows: [fleetRow("zulu", "critical"), fleetRow("mike", "ok")] }))!;
    expect(applyFleetPush(held, push)).toEqual({ rows: [fleetRow("alpha", "ok"), fleetRow("zulu", "critical"), fleetRow("mike", "ok")] });
  });

  it("replaces every row when it is full, and carries why the incident store could not be read", () => {
    const push = parseFleetPush(JSON.stringify({ full: true, rows: [fleetRow("zulu", "stale")], storeDown: "connection refused" }))!;
    expect(applyFleetPush(held, push)).toEqual({ rows: [fleetRow("zulu", "stale")], storeDown: "connection refused" });
    // A later push without it: the store answers again.
    expect(applyFleetPush({ ...held, storeDown: "connection refused" } as typeof held, { full: false, rows: [] })).toEqual(held);
  });

  it("makes the page fetch the rows when it holds none to apply a change to", () => {
    expect(applyFleetPush(undefined, { full: false, rows: [fleetRow("zulu", "critical")] })).toBeUndefined();
  });

  it("is refused when it is not JSON, or a row lacks what the page renders", () => {
    const good = fleetRow("zulu", "critical");
    for (const bad of [
      "not json",
      "[]",
      JSON.stringify({ rows: [good] }),
      JSON.stringify({ full: false, rows: {} }),
      JSON.stringify({ full: false, rows: [{ ...good, state: "degraded" }] }),
      JSON.stringify({ full: false, rows: [{ ...good, name: 7 }] }),
      JSON.stringify({ full: false, rows: [{ ...good, labels: { env: 1 } }] }),
      JSON.stringify({ full: false, rows: [{ ...good, failing: [{ component: "x" }] }] }),
      JSON.stringify({ full: false, rows: [{ ...good, moreFailing: undefined }] }),
      JSON.stringify({ full: false, rows: [{ ...good, incidents: "none" }] }),
      JSON.stringify({ full: false, rows: [good], storeDown: 5 }),
    ])
      expect(parseFleetPush(bad), bad).toBeUndefined();
    expect(parseFleetPush(JSON.stringify({ full: false, rows: [{ ...good, incidents: null, since: null, readAt: null }] }))).toBeDefined();
  });
});
