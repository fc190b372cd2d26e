import type { HealthInView } from "@/lib/signals/health-view";
import type { SignalStatus } from "@/lib/signals/signal-model";
import { componentOf, STACK_COMPONENTS, STATUS_ORDER } from "@/lib/signals/stack-components";

// One row per watched cluster, worst first: what the fleet view shows and what its pushes carry. Pure and safe
// for the browser, which re-sorts and filters the rows it holds as pushes arrive.

/** Worst first: the order of the fleet view. `stale`: Faultline has not read the cluster for a while. */
export const FLEET_STATES = ["critical", "warning", "unknown", "stale", "ok"] as const;
export type FleetState = (typeof FLEET_STATES)[number];

/** A line longer than this is cut: a row is one line, and 100 of them stay small (the page carries each twice). */
export const LINE_LENGTH = 100;
/** Failing components a row names, worst first; it counts the others. */
export const FAILING_IN_ROW = 4;
/** A suspect's title in a row, cut the same way (the catalog's longest is 78). */
export const TITLE_LENGTH = 80;

export interface FleetIncidents {
  /** Unresolved incidents: open or acknowledged. */
  open: number;
  /**
   * The one that needs attention most (open before acknowledged, the most severe, the newest) and its top suspect, whose
   * title its own title repeats (lib/incidents/rules/title.ts): the row names the suspect, its page says the rest.
   */
  top: { id: number; severity: string; suspect: { id: string; title: string } | null } | null;
}

export interface FleetRow {
  name: string;
  simulated: boolean;
  /** From the clusters file (docs/clusters.md). */
  labels: Record<string, string>;
  state: FleetState;
  /** When the cluster entered its state (ISO), as far as Faultline knows: null when it cannot tell. */
  since: string | null;
  /** The state in one line: the worst check's detail, or the rollup's line. */
  line: string;
  /** The parts of the stack that are not ok, the worst first (at most FAILING_IN_ROW), each with how many of its checks are not ok. */
  failing: { component: string; count: number }[];
  /** Failing parts beyond those named. */
  moreFailing: number;
  /** Faultline's last reading of the cluster (ISO); null before the first. */
  readAt: string | null;
  /** Null when the incident store could not be read. */
  incidents: FleetIncidents | null;
}

/** When the listed signals of each state began, from the store: the earliest of a not-ok state, the latest `ok` (the last recovery). */
export type StateSince = Partial<Record<SignalStatus, string>>;

export interface RowInput {
  name: string;
  /** The latest health's summary view; undefined until the cluster is first read. */
  view: HealthInView | undefined;
  labels: Record<string, string>;
  now: number;
  /** A reading older than this makes the cluster stale. */
  staleAfterMs: number;
  /** Undefined when the store could not be read. */
  since: StateSince | undefined;
  incidents: FleetIncidents | null;
  /** The row pushed last: a state it already had keeps its start when the store has none yet. */
  previous?: FleetRow;
}

const rank = (state: SignalStatus) => STATUS_ORDER.indexOf(state);

/** The worst check of the view; a rollup that is degraded or unknown with every check passing still is not ok. */
export function worstOf(view: HealthInView): SignalStatus {
  const worst = view.signalTally.reduce<SignalStatus>((w, t) => (t.count > 0 && rank(t.state) < rank(w) ? t.state : w), "ok");
  if (worst !== "ok") return worst;
  return view.summary.state === "degraded" ? "warning" : view.summary.state === "unknown" ? "unknown" : "ok";
}

/** The text on one line, at most `max` characters (the cut marked with …). */
export function oneLine(text: string, max = LINE_LENGTH): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The worst check's detail, of the first component in the stack's order, with how many more checks share its state. */
function lineOf(view: HealthInView, worst: SignalStatus): string {
  if (worst === "ok") return oneLine(view.summary.line);
  const order = (id: string) => STACK_COMPONENTS.findIndex((c) => c.name === componentOf(id));
  const first = view.signals.filter((s) => s.state === worst).sort((a, b) => order(a.id) - order(b.id))[0];
  if (!first) return oneLine(view.summary.line);
  const count = view.signalTally.filter((t) => t.state === worst).reduce((n, t) => n + t.count, 0);
  const more = count > 1 ? ` (+${count - 1} more)` : "";
  return `${oneLine(first.detail, LINE_LENGTH - more.length)}${more}`;
}

function failingOf(view: HealthInView): Pick<FleetRow, "failing" | "moreFailing"> {
  const by = new Map<string, { component: string; state: SignalStatus; count: number }>();
  for (const t of view.signalTally) {
    if (t.state === "ok" || t.count === 0) continue;
    const component = componentOf(t.id) ?? t.id;
    const held = by.get(component) ?? { component, state: t.state, count: 0 };
    held.count += t.count;
    if (rank(t.state) < rank(held.state)) held.state = t.state;
    by.set(component, held);
  }
  const order = (name: string) => STACK_COMPONENTS.findIndex((c) => c.name === name);
  const all = [...by.values()].sort((a, b) => rank(a.state) - rank(b.state) || order(a.component) - order(b.component));
  return { failing: all.slice(0, FAILING_IN_ROW).map(({ component, count }) => ({ component, count })), moreFailing: Math.max(0, all.length - FAILING_IN_ROW) };
}

const earlier = (a: string | null | undefined, b: string | null | undefined) => (!a ? (b ?? null) : !b ? a : Date.parse(a) <= Date.parse(b) ? a : b);

export function fleetRowOf(input: RowInput): FleetRow {
  const { name, view, labels, incidents, previous } = input;
  if (!view)
    return { name, simulated: false, labels, state: "unknown", since: null, line: "not read yet", failing: [], moreFailing: 0, readAt: null, incidents };
  const worst = worstOf(view);
  const base = { name, simulated: view.simulated, labels, ...failingOf(view), readAt: view.checkedAt, incidents };
  if (input.now - Date.parse(view.checkedAt) > input.staleAfterMs)
    return { ...base, state: "stale", since: view.checkedAt, line: oneLine(`last known: ${worst}, ${lineOf(view, worst)}`) };
  // The store has the state's start once the round that saw it is committed; until then, the reading that saw it.
  const stored = input.since === undefined ? null : (input.since[worst] ?? view.checkedAt);
  const kept = previous?.state === worst ? previous.since : null;
  return { ...base, state: worst, since: earlier(stored, kept), line: lineOf(view, worst) };
}

const sinceKey = (row: FleetRow) => (row.since ? Date.parse(row.since) : Number.POSITIVE_INFINITY);

/** Worst state first; within a state, the longest in it first (an unknown start last); then by name. */
export function compareFleetRows(a: FleetRow, b: FleetRow): number {
  return FLEET_STATES.indexOf(a.state) - FLEET_STATES.indexOf(b.state) || sinceKey(a) - sinceKey(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

export function sortFleet(rows: readonly FleetRow[]): FleetRow[] {
  return [...rows].sort(compareFleetRows);
}

/** What a viewer of the row would notice: the reading time only once it is stale (a fresh one changes every poll). */
export function rowKey(row: FleetRow): string {
  return JSON.stringify(row.state === "stale" ? row : { ...row, readAt: null });
}
