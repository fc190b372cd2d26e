import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import type { IncidentView, SubjectMemory, Placement, RuleState } from "./rule-types";

// Where a firing member key goes (docs/incidents.md, "Grouping"). Pure: the rules (rules.ts) and the alert
// intake (ingest-alerts.ts) both place through placeMemberKey; only the rules know what explains a signal.

/** The signal that makes everything read through the cluster's API server stale or unknown while it fires. */
export const CLUSTER_API_SIGNAL = "cluster.api.unreachable";
/** Signals that go stale, rather than unknown, when the cluster cannot be read (their last-known reports age). */
const STALE_WHEN_UNREAD = new Set(["kms.report.stale"]);

const seconds = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;
const startOf = (i: IncidentView) => (i.reopenedAt ?? i.openedAt).getTime();

/** How many of a member key's own suspects count as its likely causes (the catalog's failure modes share signals). */
export const TOP_CAUSES = 3;

/** What the rules know of a firing member key's causes; an alert has neither. */
export interface Causes {
  /** Its own suspects, best first, ranked on demand (only an incident with suspects asks; a ranking costs 0.24-0.4 ms). */
  ranked?: () => string[];
  /** Every failure mode it could be a symptom of: those the catalog lists its signal for, and those that explain one of them. */
  candidates?: string[];
  /** Whether what it says names a cause of its own (a specific error class); a redacted text ("reason withheld") names none. */
  specific?: () => boolean;
  /** The failure modes that need its signal (the catalog's `diagnosis.needs`): it is their root signal. */
  roots?: string[];
  /** Whether an incident's firing members are all symptoms of one of these failure modes that name no cause of their own. */
  symptomsOf?: (incident: IncidentView, modes: string[]) => boolean;
}

/**
 * Where a member key that fires goes, first match wins: (1) its unresolved incident; (2) a recently resolved one
 * holding it, unless suspects on both sides say the cause differs; (3) an unresolved incident of any age whose top
 * suspect is among the member key's own top 3 (the same root cause); (4) an unresolved incident of any age whose
 * root cause is open (its top suspect, with a signal it needs firing) when the member key can be a symptom of it and
 * names no cause of its own (a late symptom); (5) the newest incident opened within the group window that it does not
 * contradict, or whose members are all redacted symptoms of a failure mode this member key is the root signal of;
 * (6) a new incident.
 */
export function placeMemberKey(memberKey: string, incidents: IncidentView[], now: Date, config: IncidentRulesConfig, causes: Causes = {}): Placement {
  let memo: string[] | undefined;
  const ranked = () => (memo ??= causes.ranked?.() ?? []);
  const suspected = (i: IncidentView) => (i.suspects?.length ?? 0) > 0;
  const sameCause = (i: IncidentView) => suspected(i) && ranked().slice(0, TOP_CAUSES).includes(i.suspects![0]);
  // One signal alone ranks narrowly (a plugin's "connection refused" names plugin faults, not OpenBao), so only a
  // member key that can be a symptom of none of the incident's suspects, and ranks none of them, contradicts it.
  const compatible = (i: IncidentView) =>
    !suspected(i) ||
    i.suspects!.some((s) => causes.candidates?.includes(s)) ||
    ranked().length + (causes.candidates?.length ?? 0) === 0 ||
    i.suspects!.some((s) => ranked().includes(s));
  // A redacted symptom ranks nothing useful on its own ("reason withheld" names every plugin fault): what places it
  // is the catalog, which lists its signal for the open root cause, and that it says nothing against it.
  const lateSymptom = (i: IncidentView) => !!i.root && !!causes.candidates?.includes(i.root) && causes.specific?.() === false;
  // And the other way round: the root signal seen seconds after its redacted symptoms joins their incident.
  const rootOf = (i: IncidentView) => (causes.roots?.length ?? 0) > 0 && !!causes.symptomsOf?.(i, causes.roots!);
  const holds = (i: IncidentView) => i.members.some((m) => m.memberKey === memberKey);
  const active = incidents.find((i) => i.status !== "resolved" && holds(i));
  if (active) return { kind: "member", incidentId: active.id };
  const recent = incidents
    .filter((i) => i.status === "resolved" && i.resolvedAt && holds(i) && seconds(i.resolvedAt, now) <= config.reopenWindowSeconds)
    .sort((a, b) => b.resolvedAt!.getTime() - a.resolvedAt!.getTime())[0];
  if (recent && (!suspected(recent) || ranked().length === 0 || sameCause(recent))) return { kind: "reopen", incidentId: recent.id };
  const unresolved = incidents.filter((i) => i.status !== "resolved").sort((a, b) => startOf(b) - startOf(a));
  const cause = unresolved.find(sameCause) ?? unresolved.find(lateSymptom);
  if (cause) return { kind: "join", incidentId: cause.id };
  const young = unresolved.find((i) => seconds(i.reopenedAt ?? i.openedAt, now) <= config.groupWindowSeconds && (compatible(i) || rootOf(i)));
  if (young) return { kind: "join", incidentId: young.id };
  return { kind: "open" };
}

/**
 * For one round: the firing signal that explains an observation, when it is only a consequence of it. While the
 * cluster API is unreachable, whatever is unknown or stale (it is read through that API, or in the demo lives on
 * its host); otherwise an unknown explained by a critical signal on the same subject (sealed? while OpenBao does
 * not answer). Indexed once per round: a round can hold thousands of member keys.
 */
export function explainerOf(state: RuleState, apiMemberKey: string): (obs: SubjectMemory) => string | undefined {
  const apiDown = state.get(apiMemberKey)?.state === "critical";
  const critical = new Map<string, [string, string][]>();
  for (const [key, o] of state) if (o.state === "critical") critical.set(o.subject, [...(critical.get(o.subject) ?? []), [key, o.signal]]);
  return (obs) => {
    if (obs.signal === CLUSTER_API_SIGNAL) return undefined;
    if (apiDown && (obs.state === "unknown" || STALE_WHEN_UNREAD.has(obs.signal))) return apiMemberKey;
    if (obs.state !== "unknown") return undefined;
    return (critical.get(obs.subject) ?? [])
      .filter(([, signal]) => signal !== obs.signal)
      .map(([key]) => key)
      .sort()[0];
  };
}
