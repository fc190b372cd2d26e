import type { IncomingHttpHeaders } from "node:http";
import type { HeaderSource } from "@/lib/auth/identify";
import { processSlot } from "@/lib/process-slot";

// The few GETs every team dashboard polls (a cluster's health summary, the fleet, the incident list) are answered
// here, before Next's request handler, from text the domain writes once per change: through the app router each
// request cost a few ms of the one core the monitors share, and 200 polling clients queued for seconds (issue 29).
// A read registered here answers only what it is sure of: the caller's role allows it and the query is the plain
// one. Anything else (a refusal, a filter, an error) returns undefined and goes to the route handler, which answers,
// refuses and audits it as it always does.

/** The body to answer with (JSON), or undefined to let the route handler answer. */
export type HotRead = (url: URL, headers: HeaderSource) => Promise<string | undefined>;

// One per process: the domain registers from Next's server bundle, the edge (scripts/start.ts's copy) reads.
const slot = processSlot<Map<string, HotRead>>("hot-reads");
const reads = () => slot.getOrCreate(() => new Map());

/** Registers the read of a route pattern (/api/v1/clusters/[name]/health); the last registration wins. */
export function registerHotRead(pattern: string, read: HotRead): void {
  reads().set(pattern, read);
}

export function hotReadOf(pattern: string): HotRead | undefined {
  return slot.get()?.get(pattern);
}

/** Node's headers as the gate reads them: a repeated header is joined as fetch's Headers joins it. */
export function hotHeaders(headers: IncomingHttpHeaders): HeaderSource {
  return {
    get: (name) => {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}
