import { describe, expect, it } from "vitest";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { readSources } from "@/lib/sources/readings";
import { composeClusterHealth, type ClusterHealth } from "@/lib/signals/cluster-health";
import { viewOfHealth, type HealthInView } from "@/lib/signals/health-view";
import type { Signal } from "@/lib/signals/signal-model";
import { demoSources } from "@/test/demo-sources";
import { signal } from "@/test/incident-db";
import { compareFleetRows, FAILING_IN_ROW, fleetRowOf, LINE_LENGTH, sortFleet, type FleetRow, type RowInput } from "./fleet-row";

// One row per cluster from the simulator's own objects composed as the monitor composes them, and the order the
// fleet view puts them in: worst first, then the longest in its state.

const T0 = Date.parse("2026-11-23T03:00:00Z");
const iso = (secondsAfterT0: number) => new Date(T0 + secondsAfterT0 * 1000).toISOString();

function healthOf(scenario?: { id: string; node?: string }): ClusterHealth {
  const cluster = new DemoCluster({ nodes: 3, intervalMs: 30_000, now: () => new Date(T0) });
  if (scenario) setScenario(cluster, scenario.id, true, scenario.node ? { node: scenario.node } : {});
  return composeClusterHealth({ name: "c", simulated: true, intervalSeconds: 30, readings: readSources(demoSources(cluster)), now: new Date(T0) });
}

const OK = healthOf();
const PLUGIN_DOWN = healthOf({ id: "kms-plugin-unavailable", node: "master-1" });

function view(health: ClusterHealth, extra: Signal[] = [], checkedAt = iso(0)): HealthInView {
  return viewOfHealth({ ...health, checkedAt, signals: [...health.signals, ...extra] });
}

const input = (name: string, v: HealthInView | undefined, over: Partial<RowInput> = {}): RowInput => ({
  name,
  view: v,
  labels: {},
  now: T0 + 5_000,
  staleAfterMs: 30_000,
  since: {},
  incidents: { open: 0, top: null },
  ...over,
});
const row = (name: string, v: HealthInView | undefined, over: Partial<RowInput> = {}) => fleetRowOf(input(name, v, over));

const WRAPPER_RESTARTED = signal("wrapper.restarting", "payments/api", "warning", "api: running after 1 restart; last exit 1 (Error)");
const BEACON_UNKNOWN = signal("beacon.unreachable", "beacon", "unknown", "the bridge's health endpoint did not answer");

describe("a cluster's fleet row", () => {
  it("takes the worst check's state, its detail as the line, and names each failing part of the stack", () => {
    const r = row("prod", view(PLUGIN_DOWN, [WRAPPER_RESTARTED]));
    expect(r.state).toBe("critical");
    // The plugin on master-1 fails for each of the three API servers: three critical checks, one line.
    expect(r.line).toMatch(/^master-1: keyID 1 error: rpc error: code = Unavailable .*… \(\+2 more\)$/);
    expect(r.failing).toEqual([
      { component: "KMS plugins", count: 3 },
      { component: "Wrapped workloads", count: 1 },
    ]);
    expect(row("quiet", view(OK))).toMatchObject({ state: "ok", line: OK.summary.line, failing: [] });
  });

  it("names the worst failing parts of the stack up to a bound and counts the rest", () => {
    const r = row(
      "down",
      view(PLUGIN_DOWN, [
        signal("openbao.sealed", "openbao", "critical", "sealed"),
        signal("webhook.missing", "cluster", "warning", "no webhook"),
        signal("operator.unavailable", "cloudtaser-system/operator", "warning", "0 of 1"),
        signal("bridge.unavailable", "cloudtaser-system/bridge", "warning", "1 of 2"),
        BEACON_UNKNOWN,
      ]),
    );
    expect(FAILING_IN_ROW).toBe(4);
    // Critical before warning before unknown; within a state, in the stack's order.
    expect(r.failing.map((f) => f.component)).toEqual(["KMS plugins", "OpenBao", "Webhook", "Operator"]);
    expect(r.moreFailing).toBe(2);
  });

  it("counts the other checks in the worst state and keeps the line to one short line", () => {
    const long = signal("wrapper.restarting", "payments/api", "warning", `crashed ${"x".repeat(400)}\nwith a second line`);
    const r = row("prod", view(OK, [long, { ...WRAPPER_RESTARTED, subject: "payments/web" }]));
    expect(r.state).toBe("warning");
    expect(r.line.length).toBeLessThanOrEqual(LINE_LENGTH);
    expect(r.line).not.toContain("\n");
    expect(r.line).toMatch(/… \(\+1 more\)$/);
  });

  it("is not ok while the rollup is degraded or unknown, even with every check passing", () => {
    expect(row("a", view({ ...OK, summary: { state: "degraded", line: "master-2: keyID 1 stale" } })).state).toBe("warning");
    expect(row("b", view({ ...OK, summary: { state: "unknown", line: "no KMS health read yet" } }))).toMatchObject({
      state: "unknown",
      line: "no KMS health read yet",
    });
  });

  it("is unknown, with no start and no reading, until the cluster is first read", () => {
    expect(row("new", undefined)).toMatchObject({ state: "unknown", since: null, readAt: null, line: "not read yet" });
  });

  it("turns stale when Faultline has not read the cluster within the bound, keeping its last known state in the line", () => {
    const old = view(PLUGIN_DOWN, [], iso(-26));
    const r = row("lost", old);
    expect(r).toMatchObject({ state: "stale", since: iso(-26), readAt: iso(-26) });
    expect(r.line).toMatch(/^last known: critical, /);
    expect(row("fresh", view(PLUGIN_DOWN, [], iso(-25))).state).toBe("critical");
  });

  it("dates its state from the store, or from the reading that saw it while the store has not committed it", () => {
    const v = view(PLUGIN_DOWN);
    expect(row("a", v, { since: { critical: iso(-600) } }).since).toBe(iso(-600));
    expect(row("b", v, { since: { warning: iso(-600) } }).since).toBe(iso(0));
    // The row pushed before keeps the start of a state it already had; a store that cannot be read dates nothing.
    const before = { ...row("c", v), since: iso(-900) };
    expect(row("c", v, { since: { critical: iso(-600) }, previous: before }).since).toBe(iso(-900));
    expect(row("c", v, { since: undefined, previous: before }).since).toBe(iso(-900));
    expect(row("d", v, { since: undefined, incidents: null })).toMatchObject({ since: null, incidents: null });
    expect(row("e", v, { since: { critical: iso(-600) }, previous: { ...before, state: "warning" } }).since).toBe(iso(-600));
  });
});

describe("the fleet's order", () => {
  it("puts the worst first: critical, warning, unknown, stale, then ok", () => {
    const rows = [
      row("a-ok", view(OK)),
      row("b-stale", view(OK, [], iso(-60))),
      row("c-unknown", view(OK, [BEACON_UNKNOWN])),
      row("d-warning", view(OK, [WRAPPER_RESTARTED])),
      row("e-critical", view(PLUGIN_DOWN)),
      row("f-never-read", undefined),
    ];
    expect(sortFleet(rows).map((r) => r.name)).toEqual(["e-critical", "d-warning", "c-unknown", "f-never-read", "b-stale", "a-ok"]);
    // The cluster that sorts last by name is first once it is the worst.
    expect(sortFleet([row("alpha", view(OK)), row("zulu", view(PLUGIN_DOWN))]).map((r) => r.name)).toEqual(["zulu", "alpha"]);
  });

  it("within a state puts the one in it longest first, then by name; an unknown start last", () => {
    const critical = (name: string, since?: string) => row(name, view(PLUGIN_DOWN), { since: since ? { critical: since } : undefined });
    const rows = [critical("alpha", iso(-60)), critical("bravo"), critical("charlie", iso(-3600)), critical("delta", iso(-60)), critical("echo", iso(-61))];
    expect(sortFleet(rows).map((r) => r.name)).toEqual(["charlie", "echo", "alpha", "delta", "bravo"]);
    const stale = (name: string, seconds: number) => row(name, view(OK, [], iso(-seconds)));
    expect(sortFleet([stale("a", 40), stale("b", 4000), stale("c", 400)]).map((r) => r.name)).toEqual(["b", "c", "a"]);
  });

  it("is a total order: sorting any arrangement gives the same list", () => {
    const rows: FleetRow[] = [
      row("m", view(OK), { since: { ok: iso(-5) } }),
      row("n", view(OK), { since: { ok: iso(-500) } }),
      row("o", view(OK, [WRAPPER_RESTARTED]), { since: { warning: iso(-5) } }),
      row("p", view(OK, [WRAPPER_RESTARTED]), { since: { warning: iso(-5) } }),
    ];
    const sorted = sortFleet(rows).map((r) => r.name);
    expect(sorted).toEqual(["o", "p", "n", "m"]);
    expect(sortFleet([...rows].reverse()).map((r) => r.name)).toEqual(sorted);
    for (const a of rows) expect(compareFleetRows(a, a)).toBe(0);
  });
});
