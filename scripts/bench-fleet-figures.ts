// The pure part of `npm run bench:fleet` (scripts/bench-fleet.ts): reading a process's CPU time, a Server-Sent
// Events stream and wrk's report, percentiles, and each figure beside the same figure of an earlier run.

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in ticks of 1/100 s on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** User and system CPU seconds from the text of /proc/<pid>/stat (the command name may hold spaces and parentheses). */
export function cpuSecondsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After "pid (comm) ": state is field 3, utime 14, stime 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`not a /proc/<pid>/stat line: ${stat.slice(0, 80)}`);
  return (utime + stime) / TICKS_PER_SECOND;
}

/** The value at or below which `p` (0..1) of the values lie (nearest rank); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Splits a stream's text into events as it arrives in chunks of any size; comments and `retry:` lines are skipped. */
export class SseReader {
  private buffer = "";
  /** A chunk that ends in CR may be cut inside a CRLF: the CR waits for the next chunk. */
  private carriage = false;

  push(chunk: string): SseEvent[] {
    let text = this.carriage ? `\r${chunk}` : chunk;
    this.carriage = text.endsWith("\r");
    if (this.carriage) text = text.slice(0, -1);
    this.buffer += text.replace(/\r\n?/g, "\n");
    const events: SseEvent[] = [];
    let end: number;
    while ((end = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length > 0) events.push({ event, data: data.join("\n") });
    }
    return events;
  }
}

export interface LoadFigures {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Requests that took longer than 1 s, those wrk gave up on included. */
  over1s: number;
  /** Connection errors, answers that were not 2xx or 3xx, and timeouts. */
  errors: number;
}

/** The line the wrk script (bench-fleet-load.ts) prints at the end of a run. */
export const WRK_MARK = "bench-fleet-wrk ";

/** wrk's report: the script's one line of figures, in microseconds as wrk counts them. */
export function parseWrkReport(stdout: string): LoadFigures {
  const line = stdout.split("\n").find((l) => l.startsWith(WRK_MARK));
  if (!line) throw new Error(`wrk printed no figures:\n${stdout.slice(-2000)}`);
  const r = JSON.parse(line.slice(WRK_MARK.length)) as Record<string, number>;
  const seconds = r.durationUs / 1e6;
  return {
    requests: r.requests,
    perSecond: seconds > 0 ? r.requests / seconds : 0,
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    maxMs: r.maxUs / 1000,
    over1s: r.over1s + r.timeouts,
    errors: r.connect + r.read + r.write + r.status + r.timeouts,
  };
}

/** Every number of a summary by its path (`load.fleet.p99Ms`); arrays of samples are left out. */
export function figuresOf(summary: unknown, prefix = ""): Map<string, number> {
  const found = new Map<string, number>();
  if (typeof summary === "number" && Number.isFinite(summary)) found.set(prefix, summary);
  else if (summary && typeof summary === "object" && !Array.isArray(summary))
    for (const [key, value] of Object.entries(summary)) for (const [k, v] of figuresOf(value, prefix ? `${prefix}.${key}` : key)) found.set(k, v);
  return found;
}

/** Each figure of `after` with the same figure of `before` and their ratio (after / before); null when either is 0 or missing. */
export function compareFigures(before: unknown, after: unknown): { figure: string; before: number | null; after: number; ratio: number | null }[] {
  const old = figuresOf(before);
  return [...figuresOf(after)].map(([figure, value]) => {
    const was = old.get(figure);
    return { figure, before: was ?? null, after: value, ratio: was === undefined || was === 0 ? null : value / was };
  });
}
