import { describe, expect, it } from "vitest";
import { fleetSearch, matchesFleetFilter, MAX_QUERY_LENGTH, parseFleetFilter } from "./fleet-filter";
import type { FleetRow, FleetState } from "./fleet-row";

// The fleet view's filter as the address carries it: states, and words matched against names and labels.

const fleetRow = (name: string, state: FleetState, labels: Record<string, string> = {}): FleetRow => ({
  name,
  simulated: false,
  labels,
  state,
  since: null,
  line: "",
  failing: [],
  moreFailing: 0,
  readAt: null,
  incidents: null,
});

const ROWS = [
  fleetRow("prod-east", "critical", { env: "prod", region: "us-east-1", "team.example.com/owner": "payments" }),
  fleetRow("prod-west", "ok", { env: "prod", region: "us-west-2" }),
  fleetRow("staging", "warning", { env: "staging", region: "eu-west-1" }),
  fleetRow("lab", "stale"),
];
const kept = (raw: { state?: string; q?: string }) => {
  const { filter } = parseFleetFilter(raw);
  return ROWS.filter((r) => matchesFleetFilter(r, filter)).map((r) => r.name);
};

describe("the fleet's filter", () => {
  it("keeps every cluster without one", () => {
    expect(kept({})).toEqual(["prod-east", "prod-west", "staging", "lab"]);
    expect(parseFleetFilter({ state: "", q: "  " })).toEqual({ filter: { states: [], terms: [] }, errors: {} });
  });

  it("keeps the states asked for, in any case and order, and every state when all five are", () => {
    expect(kept({ state: "critical,stale" })).toEqual(["prod-east", "lab"]);
    expect(kept({ state: " WARNING " })).toEqual(["staging"]);
    expect(parseFleetFilter({ state: "ok,critical,ok" }).filter.states).toEqual(["ok", "critical"]);
    expect(parseFleetFilter({ state: "critical,warning,unknown,stale,ok" }).filter.states).toEqual([]);
  });

  it("names a state it does not know and filters by the others", () => {
    const { filter, errors } = parseFleetFilter({ state: "critical,degraded,<script>" });
    expect(filter.states).toEqual(["critical"]);
    expect(errors.state).toEqual([
      '"degraded" is not a state: expected critical, warning, unknown, stale, ok',
      '"<script>" is not a state: expected critical, warning, unknown, stale, ok',
    ]);
  });

  it("matches a word against part of the name, part of a label's value, or a label's key", () => {
    expect(kept({ q: "prod" })).toEqual(["prod-east", "prod-west"]);
    expect(kept({ q: "west" })).toEqual(["prod-west", "staging"]);
    expect(kept({ q: "region" })).toEqual(["prod-east", "prod-west", "staging"]);
    expect(kept({ q: "PAYMENTS" })).toEqual(["prod-east"]);
    expect(kept({ q: "nothing-like-it" })).toEqual([]);
  });

  it("matches key=value against one label exactly, and key= against any value of that key", () => {
    expect(kept({ q: "env=prod" })).toEqual(["prod-east", "prod-west"]);
    // Exact: "env=pro" is not "env=prod", and the value of another key does not count.
    expect(kept({ q: "env=pro" })).toEqual([]);
    expect(kept({ q: "region=prod" })).toEqual([]);
    expect(kept({ q: "team.example.com/owner=payments" })).toEqual(["prod-east"]);
    expect(kept({ q: "team.example.com/owner=" })).toEqual(["prod-east"]);
  });

  it("needs every word to match, and combines with the states", () => {
    expect(kept({ q: "env=prod west" })).toEqual(["prod-west"]);
    expect(kept({ q: "env=prod", state: "critical" })).toEqual(["prod-east"]);
    expect(kept({ q: "env=prod", state: "warning" })).toEqual([]);
  });

  it("refuses a search too long or of too many words, naming the bound, and filters by state still", () => {
    const long = parseFleetFilter({ q: "a".repeat(MAX_QUERY_LENGTH + 1), state: "ok" });
    expect(long).toEqual({ filter: { states: ["ok"], terms: [] }, errors: { q: ["at most 200 characters"] } });
    expect(parseFleetFilter({ q: "a b c d e f g h i j k" }).errors).toEqual({ q: ["at most 10 words"] });
  });

  it("writes itself back into the address it was read from", () => {
    const { filter } = parseFleetFilter({ state: "critical,warning", q: "env=prod  West" });
    expect(fleetSearch(filter)).toBe("state=critical%2Cwarning&q=env%3Dprod+west");
    const back = new URLSearchParams(fleetSearch(filter));
    expect(parseFleetFilter({ state: back.get("state")!, q: back.get("q")! }).filter).toEqual(filter);
    expect(fleetSearch({ states: [], terms: [] })).toBe("");
  });
});
