import { FLEET_STATES, type FleetRow, type FleetState } from "./fleet-row";

// The fleet view's filter, in the address: `state` (comma-separated states) and `q` (words that must all match
// the name or a label). Pure and safe for the browser, which filters the rows pushes bring with the same rules.

export const MAX_QUERY_LENGTH = 200;
export const MAX_TERMS = 10;

export interface FleetFilter {
  /** Empty: every state. */
  states: FleetState[];
  /**
   * Every term must match. `key=value`: a label with that key and value (`key=`: any value); a plain word: part of
   * the name, part of a label's value, or a label's key. Case does not matter.
   */
  terms: string[];
}

export type FleetFilterErrors = Partial<Record<"state" | "q", string[]>>;

const STATES = FLEET_STATES as readonly string[];

/** The filter from the address's values; what is wrong is named and left out, the rest still filters. */
export function parseFleetFilter(raw: { state?: string; q?: string }): { filter: FleetFilter; errors: FleetFilterErrors } {
  const errors: FleetFilterErrors = {};
  const states: FleetState[] = [];
  for (const part of (raw.state ?? "").split(",").map((s) => s.trim().toLowerCase())) {
    if (!part) continue;
    if (!STATES.includes(part)) {
      (errors.state ??= []).push(`"${part.slice(0, 40)}" is not a state: expected ${FLEET_STATES.join(", ")}`);
      continue;
    }
    if (!states.includes(part as FleetState)) states.push(part as FleetState);
  }
  const q = (raw.q ?? "").trim();
  let terms = q ? q.toLowerCase().split(/\s+/) : [];
  if (q.length > MAX_QUERY_LENGTH) {
    errors.q = [`at most ${MAX_QUERY_LENGTH} characters`];
    terms = [];
  } else if (terms.length > MAX_TERMS) {
    errors.q = [`at most ${MAX_TERMS} words`];
    terms = [];
  }
  return { filter: { states: states.length === STATES.length ? [] : states, terms }, errors };
}

function termMatches(row: FleetRow, term: string): boolean {
  const labels = Object.entries(row.labels).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()] as const);
  const eq = term.indexOf("=");
  if (eq > 0) {
    const key = term.slice(0, eq);
    const value = term.slice(eq + 1);
    return labels.some(([k, v]) => k === key && (value === "" || v === value));
  }
  return row.name.toLowerCase().includes(term) || labels.some(([k, v]) => k === term || v.includes(term));
}

export function matchesFleetFilter(row: FleetRow, filter: FleetFilter): boolean {
  if (filter.states.length > 0 && !filter.states.includes(row.state)) return false;
  return filter.terms.every((term) => termMatches(row, term));
}

/** The filter as the address carries it ("" for none). */
export function fleetSearch(filter: FleetFilter): string {
  const params = new URLSearchParams();
  if (filter.states.length > 0) params.set("state", filter.states.join(","));
  if (filter.terms.length > 0) params.set("q", filter.terms.join(" "));
  return params.toString();
}
