import { describe, expect, it } from "vitest";
import type { Signal, SignalId, SignalStatus } from "@/lib/signals/signal-model";
import { DEFAULT_RULES_CONFIG, parseRulesConfig, type IncidentRulesConfig } from "@/lib/incident-rules-config";
import { memberKeyOf } from "./member-key";
import { decideRound, type RuleAction } from "./rules";
import type { IncidentView, RuleState } from "./rule-types";

// The rules against an in-memory stand-in for the store: what an on-call would see round after round.

const sig = (id: SignalId, subject: string, state: SignalStatus, detail = `${id} ${state}`): Signal => ({ id, subject, state, detail, evidence: {} });
const key = (signal: string, subject: string) => memberKeyOf({ cluster: "prod", signal, subject });
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000);

class World {
  state: RuleState = new Map();
  incidents: IncidentView[] = [];
  log: RuleAction[] = [];
  private next = 1;
  constructor(private config: IncidentRulesConfig = DEFAULT_RULES_CONFIG) {}

  round(s: number, signals: Signal[]): RuleAction[] {
    const now = at(s);
    const result = decideRound({ cluster: "prod", previous: this.state, signals, incidents: this.incidents, now, config: this.config });
    this.state = result.state;
    for (const action of result.actions) {
      if (action.kind === "open") {
        this.incidents.push({
          id: this.next++,
          status: "open",
          openedAt: now,
          reopenedAt: null,
          resolvedAt: null,
          members: action.group.map((t) => ({ ...t, source: "signal" as const, healthySince: null })),
        });
      } else if (action.kind === "join" || action.kind === "reopen") {
        const incident = this.byId(action.incidentId);
        incident.members.push({ ...action.trigger, source: "signal", healthySince: null });
        if (action.kind === "reopen") Object.assign(incident, { status: "open", reopenedAt: now, resolvedAt: null });
      } else if (action.kind === "transition") {
        const member = this.byId(action.incidentId).members.find((m) => m.memberKey === action.memberKey)!;
        member.healthySince = action.healthy ? now : null;
      } else if (action.kind === "resolve") {
        Object.assign(this.byId(action.incidentId), { status: "resolved", resolvedAt: now });
      }
    }
    this.log.push(...result.actions);
    return result.actions;
  }
  byId(id: number) {
    return this.incidents.find((i) => i.id === id)!;
  }
  resolveByHand(id: number, s: number) {
    Object.assign(this.byId(id), { status: "resolved", resolvedAt: at(s) });
  }
}

const sealed = (state: SignalStatus) => [sig("openbao.sealed", "openbao", state), sig("kms.plugin.unhealthy", "master-1/2", "ok")];

/** A crash-looping plugin's signal: down one round, up the next, so no run lasts the 3 observations or 60 s of the debounce. */
const CRASH_LOOP = [
  [0, "critical"],
  [30, "ok"],
  [60, "critical"],
  [90, "ok"],
] as const;

describe("opening incidents", () => {
  it("opens after N consecutive critical observations, not before", () => {
    const world = new World();
    expect(world.round(0, sealed("critical"))).toEqual([]);
    expect(world.round(2, sealed("critical"))).toEqual([]);
    const actions = world.round(4, sealed("critical"));
    expect(actions).toEqual([
      {
        kind: "open",
        group: [
          expect.objectContaining({ memberKey: key("openbao.sealed", "openbao"), severity: "critical", reason: "critical for 3 consecutive observations" }),
        ],
      },
    ]);
  });

  it("restarts the debounce when the signal recovers in between", () => {
    const world = new World();
    world.round(0, sealed("critical"));
    world.round(2, sealed("critical"));
    world.round(4, sealed("ok"));
    world.round(6, sealed("critical"));
    expect(world.round(8, sealed("critical"))).toEqual([]);
    expect(world.round(10, sealed("critical"))).toHaveLength(1);
  });

  it("opens on a signal that flaps: the third turn to critical within the window, however short each run", () => {
    const world = new World();
    for (const [s, state] of CRASH_LOOP) expect(world.round(s, sealed(state))).toEqual([]);
    expect(world.round(120, sealed("critical"))).toEqual([
      { kind: "open", group: [expect.objectContaining({ memberKey: key("openbao.sealed", "openbao"), reason: "critical 3 times in 120s (flapping)" })] },
    ]);
    // It stays the one incident while it keeps flapping.
    for (let s = 150; s < 400; s += 30) expect(world.round(s, sealed(s % 60 === 30 ? "ok" : "critical")).filter((a) => a.kind === "open")).toEqual([]);
    expect(world.incidents).toHaveLength(1);
  });

  it("does not count turns older than the flapping window, nor unknown or warning runs", () => {
    const world = new World(parseRulesConfig({ flapWindowSeconds: 100 }));
    for (const [s, state] of CRASH_LOOP) world.round(s, sealed(state));
    // The turn at 0 s is older than 100 s by now: two turns in the window, no incident.
    expect(world.round(150, sealed("critical"))).toEqual([]);
    const quiet = new World();
    for (let s = 0; s < 600; s += 30) expect(quiet.round(s, [sig("openbao.standby", "openbao", s % 60 === 0 ? "warning" : "ok")])).toEqual([]);
    const unsure = new World();
    for (let s = 0; s < 600; s += 30) expect(unsure.round(s, [sig("kms.report.stale", "master-0", s % 60 === 0 ? "unknown" : "ok")])).toEqual([]);
  });

  it("opens on duration when that comes first", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 100, openAfterSeconds: 30 }));
    world.round(0, sealed("critical"));
    expect(world.round(29, sealed("critical"))).toEqual([]);
    expect(world.round(30, sealed("critical"))).toEqual([{ kind: "open", group: [expect.objectContaining({ reason: "critical for 30s" })] }]);
  });

  it("opens on unknown only after the configured time, and never on warning unless asked", () => {
    const world = new World(parseRulesConfig({ unknownOpenAfterSeconds: 300 }));
    const signals = (s: SignalStatus) => [sig("kms.report.stale", "master-0", s), sig("openbao.standby", "openbao", "warning")];
    world.round(0, signals("unknown"));
    for (let s = 2; s < 300; s += 2) expect(world.round(s, signals("unknown"))).toEqual([]);
    expect(world.round(300, signals("unknown"))).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "kms.report.stale", severity: "warning", reason: "unknown for 300s" })] },
    ]);

    const eager = new World(parseRulesConfig({ openOnWarning: true, openAfterObservations: 1 }));
    expect(eager.round(0, [sig("openbao.standby", "openbao", "warning")])).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "openbao.standby", severity: "warning" })] },
    ]);
  });
});

describe("one incident per fingerprint", () => {
  it("keeps one incident while the signal stays critical and records its flapping there", () => {
    const world = new World();
    for (let s = 0; s <= 4; s += 2) world.round(s, sealed("critical"));
    expect(world.incidents).toHaveLength(1);
    for (let s = 6; s <= 20; s += 2) expect(world.round(s, sealed("critical"))).toEqual([]);
    const flaps = [
      world.round(22, sealed("ok")),
      world.round(24, sealed("critical")),
      world.round(26, sealed("unknown")),
      world.round(28, sealed("critical")),
    ].flat();
    expect(flaps.map((a) => a.kind === "transition" && `${a.incidentId}:${a.from}->${a.to}`)).toEqual([
      "1:critical->ok",
      "1:ok->critical",
      "1:critical->unknown",
      "1:unknown->critical",
    ]);
    expect(world.incidents).toHaveLength(1);
  });

  it("groups signals that fire together on the cluster into one incident, the most severe first", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 1, unknownOpenAfterSeconds: 0 }));
    const actions = world.round(0, [
      sig("kms.report.stale", "master-0", "unknown"),
      sig("openbao.sealed", "openbao", "critical"),
      sig("kms.plugin.unhealthy", "master-1/2", "critical"),
    ]);
    expect(actions).toEqual([
      {
        kind: "open",
        group: [
          expect.objectContaining({ signal: "openbao.sealed" }),
          expect.objectContaining({ signal: "kms.plugin.unhealthy" }),
          expect.objectContaining({ signal: "kms.report.stale" }),
        ],
      },
    ]);
  });

  it("joins a signal firing within the grouping window, and opens a new incident after it", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 1, groupWindowSeconds: 120 }));
    world.round(0, [sig("openbao.sealed", "openbao", "critical")]);
    const joined = world.round(100, [sig("openbao.sealed", "openbao", "critical"), sig("kms.plugin.unhealthy", "master-1/2", "critical")]);
    expect(joined).toEqual([{ kind: "join", incidentId: 1, trigger: expect.objectContaining({ signal: "kms.plugin.unhealthy" }) }]);
    const later = world.round(200, [
      sig("openbao.sealed", "openbao", "critical"),
      sig("kms.plugin.unhealthy", "master-1/2", "critical"),
      sig("webhook.missing", "cluster", "critical"),
    ]);
    expect(later).toEqual([{ kind: "open", group: [expect.objectContaining({ signal: "webhook.missing" })] }]);
    expect(world.incidents.map((i) => i.members.length)).toEqual([2, 1]);
  });
});

describe("resolving and reopening", () => {
  const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 60, reopenWindowSeconds: 600 });

  it("resolves once every memberKey has been healthy for the configured time", () => {
    const world = new World(config);
    world.round(0, [sig("openbao.sealed", "openbao", "critical"), sig("kms.plugin.unhealthy", "master-1/2", "critical")]);
    world.round(10, [sig("openbao.sealed", "openbao", "ok"), sig("kms.plugin.unhealthy", "master-1/2", "critical")]);
    world.round(30, [sig("openbao.sealed", "openbao", "ok"), sig("kms.plugin.unhealthy", "master-1/2", "ok")]);
    expect(world.round(89, [sig("openbao.sealed", "openbao", "ok"), sig("kms.plugin.unhealthy", "master-1/2", "ok")])).toEqual([]);
    expect(world.round(90, [sig("openbao.sealed", "openbao", "ok"), sig("kms.plugin.unhealthy", "master-1/2", "ok")])).toEqual([
      { kind: "resolve", incidentId: 1, healthySince: at(30), reason: "every signal healthy for 60s" },
    ]);
  });

  it("reopens the same incident when it recurs within the window, opens a new one after", () => {
    const world = new World(config);
    world.round(0, sealed("critical"));
    world.round(10, sealed("ok"));
    world.round(70, sealed("ok"));
    expect(world.byId(1).status).toBe("resolved");
    expect(world.round(300, sealed("critical"))).toEqual([{ kind: "reopen", incidentId: 1, trigger: expect.objectContaining({ signal: "openbao.sealed" }) }]);
    world.round(310, sealed("ok"));
    world.round(370, sealed("ok"));
    expect(world.round(370 + 601, sealed("critical"))).toEqual([{ kind: "open", group: [expect.objectContaining({ signal: "openbao.sealed" })] }]);
    expect(world.incidents.map((i) => i.id)).toEqual([1, 2]);
  });

  it("on a reopen, the incident's other memberKeys that fire again record their transition (so suspects see them)", () => {
    const world = new World(config);
    const both = (state: SignalStatus) => [sig("openbao.sealed", "openbao", state), sig("kms.plugin.unhealthy", "master-1/2", state)];
    world.round(0, both("critical"));
    world.round(10, both("ok"));
    world.round(70, both("ok"));
    expect(world.byId(1).status).toBe("resolved");
    const actions = world.round(300, both("critical"));
    expect(actions).toEqual([
      { kind: "reopen", incidentId: 1, trigger: expect.objectContaining({ signal: "openbao.sealed" }) },
      expect.objectContaining({ kind: "transition", incidentId: 1, signal: "kms.plugin.unhealthy", from: "ok", to: "critical", healthy: false }),
    ]);
    expect(world.round(302, both("critical"))).toEqual([]);
  });

  it("does not reopen an incident resolved by hand while its signal still fires, only when it fires again", () => {
    const world = new World(config);
    world.round(0, sealed("critical"));
    world.resolveByHand(1, 5);
    for (let s = 10; s < 100; s += 10) expect(world.round(s, sealed("critical"))).toEqual([]);
    world.round(100, sealed("ok"));
    expect(world.round(110, sealed("critical"))).toEqual([{ kind: "reopen", incidentId: 1, trigger: expect.anything() }]);
  });

  it("counts a subject that is no longer reported as healthy, but not an empty round", () => {
    const world = new World(config);
    world.round(0, [sig("kms.plugin.unhealthy", "master-9/1", "critical"), sig("openbao.sealed", "openbao", "ok")]);
    expect(world.round(5, [])).toEqual([]);
    expect(world.round(10, [sig("openbao.sealed", "openbao", "ok")])).toEqual([
      {
        kind: "transition",
        incidentId: 1,
        memberKey: key("kms.plugin.unhealthy", "master-9/1"),
        signal: "kms.plugin.unhealthy",
        subject: "master-9/1",
        from: "critical",
        to: "absent",
        detail: "no longer reported",
        healthy: true,
      },
    ]);
    expect(world.round(70, [sig("openbao.sealed", "openbao", "ok")])).toEqual([expect.objectContaining({ kind: "resolve", incidentId: 1 })]);
  });

  it("resolves an incident held by an alert only once the alert has been resolved long enough", () => {
    const world = new World(config);
    world.incidents.push({
      id: 7,
      status: "open",
      openedAt: at(0),
      reopenedAt: null,
      resolvedAt: null,
      members: [{ memberKey: key("KMSLatencyHigh", "master-0"), signal: "KMSLatencyHigh", subject: "master-0", source: "alert", healthySince: null }],
    });
    expect(world.round(100, sealed("ok"))).toEqual([]);
    world.byId(7).members[0].healthySince = at(100);
    expect(world.round(159, sealed("ok"))).toEqual([]);
    expect(world.round(160, sealed("ok"))).toEqual([expect.objectContaining({ kind: "resolve", incidentId: 7 })]);
  });
});

describe("configuration", () => {
  it("fills defaults and names the field that is wrong", () => {
    expect(parseRulesConfig()).toEqual(DEFAULT_RULES_CONFIG);
    expect(DEFAULT_RULES_CONFIG).toMatchObject({ openAfterObservations: 3, resolveAfterSeconds: 300 });
    expect(() => parseRulesConfig({ openAfterObservations: 0 })).toThrow(/openAfterObservations/);
    expect(() => parseRulesConfig({ resolveAfter: 5 })).toThrow(/resolveAfter/);
  });
});
