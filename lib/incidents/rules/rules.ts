import type { Signal } from "@/lib/signals/signal-model";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import { memberKeyOf } from "./member-key";
import { CLUSTER_API_SIGNAL, explainerOf, placeMemberKey } from "./placement";
import { bySeverity, severityOfState } from "./severity";
import type { IncidentView, RuleMember, SubjectMemory, SubjectState, RuleState, Severity } from "./rule-types";

// The incident rules as pure functions: given what the rules remembered, the signals of one round and the
// cluster's incidents, decide what to open, join, reopen, record and resolve. No I/O; store code applies it.

export interface Trigger {
  memberKey: string;
  signal: string;
  subject: string;
  state: SubjectState;
  detail: string;
  severity: Severity;
  /** Why it fires: "critical for 3 consecutive observations". */
  reason: string;
  /** Its own suspects (the catalog's failure-mode ids, best first, up to 10), ranked from this one signal. */
  suspects?: string[];
}

export type RuleAction =
  | { kind: "open"; group: Trigger[] }
  | { kind: "join"; incidentId: number; trigger: Trigger }
  | { kind: "reopen"; incidentId: number; trigger: Trigger }
  | {
      kind: "transition";
      incidentId: number;
      memberKey: string;
      signal: string;
      subject: string;
      from: SubjectState;
      to: SubjectState;
      detail: string;
      healthy: boolean;
    }
  | { kind: "resolve"; incidentId: number; healthySince: Date; reason: string }
  /** A member still firing says something new (a plugin that failed on an image pull now fails on an expired token). */
  | { kind: "detail"; incidentId: number; memberKey: string; detail: string };

export interface RoundInput {
  cluster: string;
  previous: RuleState;
  signals: Signal[];
  /** The cluster's unresolved incidents and those resolved within the reopen window. */
  incidents: IncidentView[];
  now: Date;
  config: IncidentRulesConfig;
  /** The suspects of one firing signal on its own, best first (apply-round.ts ranks them); none: grouping by time only. */
  rankTrigger?: (t: { signal: string; subject: string; state: SubjectState; detail: string }) => string[];
  /** The failure modes a signal could be a symptom of: the catalog lists it for them, or for a mode they explain. */
  candidatesOf?: (signal: string) => string[];
  /** The failure modes that need a signal (the catalog's `diagnosis.needs`): what it is the root signal of. */
  rootsOf?: (signal: string) => string[];
  /** Whether what a member key's signal says this round names a cause of its own (a specific error class); none: all do. */
  specific?: (memberKey: string) => boolean;
}
export interface RoundResult {
  state: RuleState;
  /** Member keys whose observation changed (only these need writing). */
  changed: string[];
  actions: RuleAction[];
}

export const isHealthy = (state: SubjectState | string) => state === "ok" || state === "absent";
const seconds = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;

/** Whether an observation has lasted long enough to open an incident, and why. */
function firingReason(obs: SubjectMemory, now: Date, config: IncidentRulesConfig): string | undefined {
  const age = seconds(obs.since, now);
  if (obs.state === "critical" || (obs.state === "warning" && config.openOnWarning)) {
    const onsets = obs.onsets?.length ?? 0;
    if (onsets >= config.flapOpenAfter) return `${obs.state} ${onsets} times in ${Math.round(seconds(obs.onsets![0], now))}s (flapping)`;
    if (obs.streak >= config.openAfterObservations) return `${obs.state} for ${obs.streak} consecutive observation${obs.streak === 1 ? "" : "s"}`;
    if (age >= config.openAfterSeconds) return `${obs.state} for ${Math.round(age)}s`;
  }
  if (obs.state === "unknown" && age >= config.unknownOpenAfterSeconds) return `unknown for ${Math.round(age)}s`;
  return undefined;
}

function observe(input: RoundInput): { state: RuleState; changed: Set<string>; previousStates: Map<string, SubjectState>; retold: Set<string> } {
  const { cluster, previous, signals, now, config } = input;
  const state: RuleState = new Map(previous);
  const changed = new Set<string>();
  const previousStates = new Map<string, SubjectState>();
  const seen = new Set<string>();
  const retold = new Set<string>();
  for (const signal of signals) {
    const key = memberKeyOf({ cluster, signal: signal.id, subject: signal.subject });
    if (seen.has(key)) continue; // a duplicate (signal, subject) in one round counts once
    seen.add(key);
    const prev = previous.get(key);
    previousStates.set(key, prev?.state ?? "ok");
    if (!prev && signal.state === "ok") continue;
    if (prev && prev.state === signal.state) {
      const streak = Math.min(prev.streak + 1, config.openAfterObservations);
      state.set(key, { ...prev, streak, detail: signal.detail });
      if (streak !== prev.streak) changed.add(key);
      if (signal.detail !== prev.detail) retold.add(key);
      continue;
    }
    const onsets = onsetsAfter(prev, signal.state, now, config);
    state.set(key, { signal: signal.id, subject: signal.subject, state: signal.state, since: now, streak: 1, handled: false, detail: signal.detail, onsets });
    changed.add(key);
  }
  // A subject no longer reported (a node removed, a key renamed) counts as healthy; an empty round is no observation.
  if (signals.length > 0) {
    for (const [key, prev] of previous) {
      if (seen.has(key) || isHealthy(prev.state)) continue;
      previousStates.set(key, prev.state);
      state.set(key, { ...prev, state: "absent", since: now, streak: 1, handled: false, detail: "no longer reported" });
      changed.add(key);
    }
  }
  return { state, changed, previousStates, retold };
}

/** The onsets kept after a change of state: a turn from healthy to not-ok adds one; those older than the window drop. */
function onsetsAfter(prev: SubjectMemory | undefined, next: SubjectState, now: Date, config: IncidentRulesConfig): Date[] {
  const kept = (prev?.onsets ?? []).filter((t) => seconds(t, now) <= config.flapWindowSeconds);
  const turnedBad = !isHealthy(next) && next !== "unknown" && (!prev || isHealthy(prev.state));
  return (turnedBad ? [...kept, now] : kept).slice(-config.flapOpenAfter);
}

export function decideRound(input: RoundInput): RoundResult {
  const { now, config } = input;
  const { state, changed, previousStates, retold } = observe(input);
  const actions: RuleAction[] = [];
  // A working copy of the incidents: placements in this round see each other (id -1 is the one being opened).
  const incidents: IncidentView[] = input.incidents.map((i) => ({ ...i, members: [...i.members] }));
  const touched = new Set<number>();

  for (const incident of incidents) {
    if (incident.status === "resolved") continue;
    for (const member of incident.members) {
      if (member.source !== "signal") continue;
      const current = state.get(member.memberKey);
      if (retold.has(member.memberKey) && current && !isHealthy(current.state)) {
        actions.push({ kind: "detail", incidentId: incident.id, memberKey: member.memberKey, detail: current.detail });
      }
      if (!changed.has(member.memberKey)) continue;
      const obs = state.get(member.memberKey)!;
      const from = previousStates.get(member.memberKey) ?? "ok";
      if (from === obs.state) continue;
      actions.push({
        kind: "transition",
        incidentId: incident.id,
        memberKey: member.memberKey,
        signal: member.signal,
        subject: member.subject,
        from,
        to: obs.state,
        detail: obs.detail,
        healthy: isHealthy(obs.state),
      });
    }
  }

  const triggers: Trigger[] = [];
  for (const [key, obs] of state) {
    if (obs.handled) continue;
    const reason = firingReason(obs, now, config);
    if (!reason) continue;
    const trigger: Trigger = {
      memberKey: key,
      signal: obs.signal,
      subject: obs.subject,
      state: obs.state,
      detail: obs.detail,
      severity: severityOfState(obs.state),
      reason,
    };
    triggers.push(trigger);
  }
  // The most severe first; among equals the cluster API, which explains the others and names their incident.
  const rootFirst = (t: Trigger) => (t.signal === CLUSTER_API_SIGNAL ? 0 : 1);
  triggers.sort((a, b) => bySeverity(a.severity, b.severity) || rootFirst(a) - rootFirst(b));
  const explainer = explainerOf(state, memberKeyOf({ cluster: input.cluster, signal: CLUSTER_API_SIGNAL, subject: "cluster" }));
  const specific = input.specific;
  // Whether every firing member of an incident is a symptom of one of these failure modes that says nothing of its
  // own cause. An alert's member is read by the alert intake, not here: it counts as saying something.
  const symptomsOf = specific
    ? (incident: IncidentView, modes: string[]) => {
        const firing = incident.members.filter((m) => (m.source === "alert" ? !m.healthySince : !isHealthy(state.get(m.memberKey)?.state ?? "ok")));
        return (
          firing.length > 0 &&
          firing.every((m) => m.source === "signal" && !specific(m.memberKey) && (input.candidatesOf?.(m.signal) ?? []).some((mode) => modes.includes(mode)))
        );
      }
    : undefined;

  const group: Trigger[] = [];
  for (const trigger of triggers) {
    // Ranked on demand (and kept on the trigger): only an incident with suspects needs the member key's own.
    const ranked = () => (trigger.suspects ??= input.rankTrigger?.(trigger) ?? []);
    let placement = placeMemberKey(trigger.memberKey, incidents, now, config, {
      ranked,
      candidates: input.candidatesOf?.(trigger.signal),
      specific: specific && (() => specific(trigger.memberKey)),
      roots: input.rootsOf?.(trigger.signal),
      symptomsOf,
    });
    const explaining = placement.kind === "member" ? undefined : explainer(state.get(trigger.memberKey)!);
    if (explaining) {
      // A consequence joins the incident of the signal that explains it, or waits (unhandled) until that one opens.
      const holder = incidents.find((i) => i.status !== "resolved" && i.members.some((m) => m.memberKey === explaining));
      if (!holder) continue;
      placement = { kind: "join", incidentId: holder.id };
    }
    state.set(trigger.memberKey, { ...state.get(trigger.memberKey)!, handled: true });
    changed.add(trigger.memberKey);
    const member: RuleMember = { memberKey: trigger.memberKey, signal: trigger.signal, subject: trigger.subject, source: "signal", healthySince: null };
    if (placement.kind === "member") {
      // Already in its unresolved incident; transitions record the change. A member last recorded healthy whose
      // incident another member key reopened this round gets its transition here (the loop above skipped it).
      const holder = incidents.find((i) => i.id === placement.incidentId)!;
      const recordedHealthy = holder.members.some((m) => m.memberKey === trigger.memberKey && m.source === "signal" && m.healthySince);
      if (recordedHealthy && !actions.some((a) => a.kind === "transition" && a.memberKey === trigger.memberKey)) {
        const before = previousStates.get(trigger.memberKey);
        const from = before && before !== trigger.state ? before : "ok";
        actions.push({
          kind: "transition",
          incidentId: holder.id,
          memberKey: trigger.memberKey,
          signal: trigger.signal,
          subject: trigger.subject,
          from,
          to: trigger.state,
          detail: trigger.detail,
          healthy: false,
        });
        touched.add(holder.id);
      }
      continue;
    }
    if (placement.kind === "open" || placement.incidentId === -1) {
      if (group.length === 0) incidents.push({ id: -1, status: "open", openedAt: now, reopenedAt: null, resolvedAt: null, members: [] });
      incidents.find((i) => i.id === -1)!.members.push(member);
      group.push(trigger);
      continue;
    }
    const target = incidents.find((i) => i.id === placement.incidentId)!;
    if (placement.kind === "reopen") Object.assign(target, { status: "open", reopenedAt: now, resolvedAt: null });
    target.members.push(member);
    touched.add(target.id);
    actions.push({ kind: placement.kind, incidentId: target.id, trigger });
  }
  if (group.length > 0) actions.push({ kind: "open", group });

  for (const incident of incidents) {
    if (incident.status === "resolved" || incident.id === -1 || touched.has(incident.id)) continue;
    const healthySince = incidentHealthySince(incident, state);
    if (healthySince && seconds(healthySince, now) >= config.resolveAfterSeconds) {
      actions.push({ kind: "resolve", incidentId: incident.id, healthySince, reason: `every signal healthy for ${Math.round(seconds(healthySince, now))}s` });
    }
  }
  return { state, changed: [...changed], actions };
}

/** When the last of an incident's member keys became healthy; null while any is not. */
export function incidentHealthySince(incident: IncidentView, state: RuleState): Date | null {
  let latest: Date | null = null;
  for (const member of incident.members) {
    const obs = member.source === "signal" ? state.get(member.memberKey) : undefined;
    const since = obs ? (isHealthy(obs.state) ? obs.since : null) : member.healthySince;
    if (!since) return null;
    if (!latest || since > latest) latest = since;
  }
  return latest;
}
