import { describe, expect, it } from "vitest";
import type { Signal, SignalId, SignalStatus } from "@/lib/signals/signal-model";
import { parseRulesConfig, type IncidentRulesConfig } from "@/lib/incident-rules-config";
import { memberKeyOf } from "./member-key";
import { decideRound, type RuleAction } from "./rules";
import type { IncidentView, RuleState } from "./rule-types";

// Causal grouping: where a firing fingerprint goes once the rules know its own likely causes (its top suspects)
// and those of the incidents already open. The ranking itself is lib/incidents/suspects.ts's; here each signal's
// top suspects are given, so the placement rules are what is tested.

const sig = (id: SignalId, subject: string, state: SignalStatus, detail = `${id} ${state}`): Signal => ({ id, subject, state, detail, evidence: {} });
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);
const at = (s: number) => new Date(T0 + s * 1000);

/** What the catalog says of the signals beyond their candidates: which failure modes need them, and which details name a cause. */
interface Roots {
  rootsOf: Partial<Record<string, string[]>>;
  specific: (detail: string) => boolean;
}

class World {
  state: RuleState = new Map();
  incidents: IncidentView[] = [];
  private next = 1;
  constructor(
    private config: IncidentRulesConfig,
    private causes: Partial<Record<string, string[]>>,
    private candidates: Partial<Record<string, string[]>> = {},
    private roots?: Roots,
  ) {}
  round(s: number, signals: Signal[]): RuleAction[] {
    const now = at(s);
    const rankTrigger = (t: { signal: string; detail: string }) => this.causes[`${t.signal} ${t.detail}`] ?? this.causes[t.signal] ?? [];
    const said = new Map(signals.map((g) => [memberKeyOf({ cluster: "prod", signal: g.id, subject: g.subject }), g.detail]));
    // As membership.ts reads it: the top suspect is an open root cause while a signal it needs fires among the members.
    for (const i of this.incidents) {
      const top = i.suspects?.[0];
      i.root = top && i.members.some((m) => this.roots?.rootsOf[m.signal]?.includes(top)) ? top : undefined;
    }
    const result = decideRound({
      cluster: "prod",
      previous: this.state,
      signals,
      incidents: this.incidents,
      now,
      config: this.config,
      rankTrigger,
      candidatesOf: (signal) => this.candidates[signal] ?? [],
      ...(this.roots
        ? { rootsOf: (signal: string) => this.roots!.rootsOf[signal] ?? [], specific: (key: string) => this.roots!.specific(said.get(key) ?? "") }
        : {}),
    });
    this.state = result.state;
    for (const action of result.actions) {
      if (action.kind === "open") {
        // As refreshSuspects would: the incident's suspects are its first member's.
        const suspects = rankTrigger(action.group[0]);
        this.incidents.push({
          id: this.next++,
          status: "open",
          openedAt: now,
          reopenedAt: null,
          resolvedAt: null,
          suspects,
          members: action.group.map((t) => ({ ...t, source: "signal" as const, healthySince: null })),
        });
      } else if (action.kind === "join" || action.kind === "reopen") {
        const incident = this.byId(action.incidentId);
        incident.members.push({ ...action.trigger, source: "signal", healthySince: null });
        if (action.kind === "reopen") Object.assign(incident, { status: "open", reopenedAt: now, resolvedAt: null });
      } else if (action.kind === "resolve") Object.assign(this.byId(action.incidentId), { status: "resolved", resolvedAt: now });
    }
    return result.actions;
  }
  byId(id: number) {
    return this.incidents.find((i) => i.id === id)!;
  }
}

const config = parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 60, groupWindowSeconds: 120 });
const plugin = (state: SignalStatus, detail?: string) => sig("kms.plugin.unhealthy", "master-0/1", state, detail);
const members = (w: World) => w.incidents.map((i) => i.members.map((m) => m.signal));

describe("grouping by shared cause", () => {
  it("a later symptom joins an incident of any age whose top suspect is among its own", () => {
    const world = new World(config, { "openbao.sealed": ["openbao-sealed"], "kms.plugin.unhealthy": ["kms-plugin-crash-loop", "openbao-sealed", "x"] });
    world.round(0, [sig("openbao.sealed", "openbao", "critical")]);
    const actions = world.round(1000, [sig("openbao.sealed", "openbao", "critical"), plugin("critical")]);
    expect(actions).toEqual([{ kind: "join", incidentId: 1, trigger: expect.objectContaining({ signal: "kms.plugin.unhealthy" }) }]);
    expect(members(world)).toEqual([["openbao.sealed", "kms.plugin.unhealthy"]]);
  });

  it("within the group window, a memberKey whose causes contradict the incident's opens its own", () => {
    const world = new World(config, { "openbao.sealed": ["openbao-sealed"], "webhook.missing": ["webhook-deleted"] });
    world.round(0, [sig("openbao.sealed", "openbao", "critical")]);
    expect(world.round(30, [sig("openbao.sealed", "openbao", "critical"), sig("webhook.missing", "cluster", "critical")])).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "webhook.missing" })] },
    ]);
  });

  it("within the group window, a symptom the incident's suspects can cause joins, though its own ranking names others", () => {
    const world = new World(
      config,
      { "openbao.unreachable": ["openbao-unavailable"], "kms.plugin.unhealthy": ["kms-plugin-crash-loop", "kms-socket-unavailable"] },
      { "kms.plugin.unhealthy": ["kms-plugin-crash-loop", "openbao-unavailable"], "webhook.missing": ["webhook-misbehaving"] },
    );
    world.round(0, [sig("openbao.unreachable", "openbao", "critical")]);
    const plugin = sig("kms.plugin.unhealthy", "master-1/1", "critical", "transit: connection refused");
    expect(world.round(30, [sig("openbao.unreachable", "openbao", "critical"), plugin])).toEqual([
      { kind: "join", incidentId: 1, trigger: expect.objectContaining({ signal: "kms.plugin.unhealthy" }) },
    ]);
    expect(world.round(60, [sig("openbao.unreachable", "openbao", "critical"), plugin, sig("webhook.missing", "cluster", "critical")])).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "webhook.missing" })] },
    ]);
  });

  it("within the group window, shared plausible causes (or none known) still join", () => {
    const world = new World(config, { "openbao.sealed": ["openbao-sealed", "openbao-down"], "openbao.unreachable": ["openbao-down"] });
    world.round(0, [sig("openbao.sealed", "openbao", "critical")]);
    const both = [sig("openbao.sealed", "openbao", "critical"), sig("openbao.unreachable", "openbao", "critical")];
    expect(world.round(30, both)).toEqual([{ kind: "join", incidentId: 1, trigger: expect.objectContaining({ signal: "openbao.unreachable" }) }]);
    expect(world.round(60, [...both, sig("webhook.missing", "cluster", "critical")])).toEqual([
      { kind: "join", incidentId: 1, trigger: expect.objectContaining({ signal: "webhook.missing" }) },
    ]);
  });
});

describe("a root cause and its redacted symptoms", () => {
  // The symptom says only that the check failed; what names the cause is OpenBao's own health.
  const causes = {
    "apiserver.kms-providers.failing": ["kms-plugin-unavailable", "kms-socket-unavailable"],
    "openbao.sealed": ["openbao-sealed"],
    "kms.plugin.unhealthy": ["kms-plugin-crash-loop", "kms-plugin-unavailable"],
    "kms.plugin.unhealthy Failed to pull image": ["kms-static-pod-image-unavailable"],
    "webhook.missing": ["webhook-misbehaving"],
  };
  const candidates = {
    "apiserver.kms-providers.failing": ["kms-plugin-unavailable", "kms-socket-unavailable", "openbao-sealed"],
    "openbao.sealed": ["openbao-sealed"],
    "kms.plugin.unhealthy": ["kms-plugin-crash-loop", "kms-plugin-unavailable", "kms-static-pod-image-unavailable", "openbao-sealed"],
    "webhook.missing": ["webhook-misbehaving"],
  };
  const roots: Roots = {
    rootsOf: { "openbao.sealed": ["openbao-sealed"], "webhook.missing": ["webhook-misbehaving"] },
    specific: (detail) => /Failed to pull image|status key_id mismatch/.test(detail),
  };
  const withheld = sig("apiserver.kms-providers.failing", "api", "critical", "[-]kms-providers failed: reason withheld");
  const sealed = sig("openbao.sealed", "openbao", "critical");

  it("the root signal seen within the group window joins the incident of its redacted symptom, though neither ranks the other", () => {
    const world = new World(config, causes, candidates, roots);
    world.round(0, [withheld]);
    expect(world.round(45, [withheld, sealed])).toEqual([{ kind: "join", incidentId: 1, trigger: expect.objectContaining({ signal: "openbao.sealed" }) }]);
    // Without the catalog's word that the check is a symptom of it, the root opens its own (as before).
    const unlisted = new World(config, causes, { ...candidates, "apiserver.kms-providers.failing": ["kms-plugin-unavailable"] }, roots);
    unlisted.round(0, [withheld]);
    expect(unlisted.round(45, [withheld, sealed])).toEqual([{ kind: "open", group: [expect.objectContaining({ signal: "openbao.sealed" })] }]);
  });

  it("the root signal opens its own incident when the symptom names another cause, or came before the group window", () => {
    const named = new World(config, causes, candidates, roots);
    const mismatch = sig("apiserver.kms-providers.failing", "api", "critical", "status key_id mismatch");
    named.round(0, [mismatch]);
    expect(named.round(45, [mismatch, sealed])).toEqual([{ kind: "open", group: [expect.objectContaining({ signal: "openbao.sealed" })] }]);
    const old = new World(config, causes, candidates, roots);
    old.round(0, [withheld]);
    expect(old.round(300, [withheld, sealed])).toEqual([{ kind: "open", group: [expect.objectContaining({ signal: "openbao.sealed" })] }]);
  });

  it("a late symptom that names no cause joins the open root cause however old; one naming its own, or one the root does not list, opens its own", () => {
    const world = new World(config, causes, candidates, roots);
    world.round(0, [sealed]);
    const redacted = sig("kms.plugin.unhealthy", "master-0/1", "critical", "unhealthy");
    expect(world.round(900, [sealed, redacted])).toEqual([{ kind: "join", incidentId: 1, trigger: expect.objectContaining({ subject: "master-0/1" }) }]);
    const pull = sig("kms.plugin.unhealthy", "master-1/1", "critical", "Failed to pull image");
    expect(world.round(930, [sealed, redacted, pull])).toEqual([{ kind: "open", group: [expect.objectContaining({ subject: "master-1/1" })] }]);
    expect(world.round(960, [sealed, redacted, pull, sig("webhook.missing", "webhook", "critical")])).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "webhook.missing" })] },
    ]);
  });

  it("a late redacted symptom does not join an incident whose top suspect has no signal it needs firing", () => {
    const world = new World(config, causes, candidates, roots);
    world.round(0, [sig("kms.plugin.unhealthy", "master-0/1", "critical", "Failed to pull image")]);
    expect(world.round(900, [sig("kms.plugin.unhealthy", "master-0/1", "critical", "Failed to pull image"), withheld])).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "apiserver.kms-providers.failing" })] },
    ]);
  });
});

describe("reopening only for the same cause", () => {
  const causes = {
    "kms.plugin.unhealthy socket gone": ["kms-plugin-socket-missing"],
    "kms.plugin.unhealthy token expired": ["jwt-expired", "jwt-file-missing"],
  };

  it("opens a new incident when the memberKey fires again for another cause; the old one stays resolved", () => {
    const world = new World(config, causes);
    world.round(0, [plugin("critical", "socket gone")]);
    world.round(10, [plugin("ok")]);
    world.round(70, [plugin("ok")]);
    expect(world.byId(1).status).toBe("resolved");
    expect(world.round(70 + 14 * 60, [plugin("critical", "token expired")])).toEqual([
      { kind: "open", group: [expect.objectContaining({ suspects: ["jwt-expired", "jwt-file-missing"] })] },
    ]);
    expect(world.incidents.map((i) => i.status)).toEqual(["resolved", "open"]);
  });

  it("reopens it when the cause is the same", () => {
    const world = new World(config, causes);
    world.round(0, [plugin("critical", "token expired")]);
    world.round(10, [plugin("ok")]);
    world.round(70, [plugin("ok")]);
    expect(world.round(300, [plugin("critical", "token expired")])).toEqual([{ kind: "reopen", incidentId: 1, trigger: expect.anything() }]);
  });
});

describe("signals explained by another firing signal", () => {
  const apiDown = (state: SignalStatus) => [
    sig("cluster.api.unreachable", "cluster", state, "no Kubernetes read answered: connect ECONNREFUSED"),
    sig("openbao.unreachable", "openbao", state),
    sig("beacon.unreachable", "beacon", state === "critical" ? "unknown" : "ok"),
    sig("kms.report.stale", "master-0", state),
  ];

  it("while the cluster API is unreachable, one incident named after it takes what is unknown or stale because of it", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 3 }), {
      "openbao.unreachable": ["openbao-down"],
      "kms.report.stale": ["reporter-stale"],
    });
    for (let s = 0; s <= 600; s += 30) world.round(s, apiDown("critical"));
    expect(world.incidents).toHaveLength(1);
    expect(world.incidents[0].members[0].signal).toBe("cluster.api.unreachable");
    expect(members(world)[0].sort()).toEqual(["beacon.unreachable", "cluster.api.unreachable", "kms.report.stale", "openbao.unreachable"]);
  });

  it("holds an unknown the cluster API explains until the cluster API's incident opens", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 100, openAfterSeconds: 400, unknownOpenAfterSeconds: 300 }), {});
    const down = [sig("cluster.api.unreachable", "cluster", "critical"), sig("beacon.unreachable", "beacon", "unknown")];
    for (let s = 0; s < 400; s += 30) expect(world.round(s, down)).toEqual([]);
    expect(world.round(400, down)).toEqual([
      { kind: "open", group: [expect.objectContaining({ signal: "cluster.api.unreachable" }), expect.objectContaining({ signal: "beacon.unreachable" })] },
    ]);
  });

  it("an unknown on the subject of a firing signal joins that signal's incident (sealed? while OpenBao does not answer)", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 1, groupWindowSeconds: 60 }), {
      "openbao.unreachable": ["openbao-down"],
      "openbao.sealed": ["openbao-sealed"],
    });
    const down = [sig("openbao.unreachable", "openbao", "critical"), sig("openbao.sealed", "openbao", "unknown", "OpenBao did not answer")];
    for (let s = 0; s <= 600; s += 30) world.round(s, down);
    expect(members(world)).toEqual([["openbao.unreachable", "openbao.sealed"]]);
  });

  it("once the cluster API answers, its incident resolves by the normal rules", () => {
    const world = new World(parseRulesConfig({ openAfterObservations: 1, resolveAfterSeconds: 300 }), {});
    for (let s = 0; s <= 330; s += 30) world.round(s, apiDown("critical"));
    for (let s = 360; s < 660; s += 30) world.round(s, apiDown("ok"));
    expect(world.round(660, apiDown("ok"))).toEqual([expect.objectContaining({ kind: "resolve", incidentId: 1 })]);
  });
});

describe("what a firing member says", () => {
  it("a member that keeps firing but says something new has its detail recorded, so the suspects see it", () => {
    const world = new World(config, {});
    world.round(0, [plugin("critical", "Failed to pull image")]);
    expect(world.round(30, [plugin("critical", "Failed to pull image")])).toEqual([]);
    expect(world.round(60, [plugin("critical", "auth login failed: jwt expired")])).toEqual([
      { kind: "detail", incidentId: 1, memberKey: expect.stringContaining("kms.plugin.unhealthy"), detail: "auth login failed: jwt expired" },
    ]);
    expect(world.round(90, [plugin("ok", "healthy")])).toEqual([expect.objectContaining({ kind: "transition", to: "ok" })]);
  });
});
