// The one boundary for text that comes from outside (cluster objects, probe bodies, metric labels, alerts,
// people): what PostgreSQL or a browser cannot hold is replaced visibly, never thrown, and counted; size
// and depth are capped with a marker a person can see. Pure functions, no I/O.

/** U+FFFD, shown where a character was refused. */
export const REPLACEMENT = "\uFFFD";
/** Appended where text was cut. */
export const CLIPPED_MARKER = "…[clipped]";
/** Stands where a value nested deeper than the bound was. */
export const TOO_DEEP_MARKER = "[nested too deep]";

export interface CleanLimits {
  /** Characters per string (UTF-16 code units). */
  maxString: number;
  /** Nesting depth of objects and arrays (the top value is depth 1). */
  maxDepth: number;
  /** Items of one array and keys of one object. */
  maxItems: number;
}

export const DEFAULT_LIMITS: CleanLimits = { maxString: 16_384, maxDepth: 32, maxItems: 2_000 };

/** What cleaning changed, for the log and the page. */
export interface CleanReport {
  /** Characters replaced by U+FFFD: NUL, other C0 controls but tab/newline/return, lone surrogates, U+FFFE/U+FFFF. */
  replaced: number;
  /** Strings cut at maxString. */
  clipped: number;
  /** Values dropped for being deeper than maxDepth, or past maxItems. */
  dropped: number;
  /** When present, collects the distinct refused characters as "U+0000" (at most 8), for the log. */
  refused?: Set<string>;
}

export const emptyReport = (): CleanReport => ({ replaced: 0, clipped: 0, dropped: 0 });

export function changed(report: CleanReport): boolean {
  return report.replaced + report.clipped + report.dropped > 0;
}

/** Adds one report's counts (and refused characters) to another. */
export function addReport(into: CleanReport, from: CleanReport): CleanReport {
  into.replaced += from.replaced;
  into.clipped += from.clipped;
  into.dropped += from.dropped;
  if (into.refused) for (const code of from.refused ?? []) if (into.refused.size < 8) into.refused.add(code);
  return into;
}

/** "2 characters replaced, 1 value clipped" for a log line or a page; "" when nothing changed. */
export function describeReport(report: CleanReport): string {
  const parts: string[] = [];
  if (report.replaced) parts.push(`${report.replaced} character${report.replaced === 1 ? "" : "s"} replaced`);
  if (report.clipped) parts.push(`${report.clipped} value${report.clipped === 1 ? "" : "s"} clipped`);
  if (report.dropped) parts.push(`${report.dropped} value${report.dropped === 1 ? "" : "s"} dropped (too deep or too many)`);
  const codes = report.refused?.size ? ` (${[...report.refused].join(", ")})` : "";
  return parts.join(", ") + (report.replaced ? codes : "");
}

// Characters PostgreSQL's text and jsonb refuse (NUL, \u0000 in jsonb), lone surrogates (invalid UTF-8 once
// encoded), C0 controls a page cannot show, and the two noncharacters some parsers reject.
const REFUSED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One string made safe to store and show; the report counts what changed. */
export function cleanText(text: string, maxString = DEFAULT_LIMITS.maxString, report: CleanReport = emptyReport()): string {
  let out = text;
  if (out.length > maxString) {
    // Cut first (so a megabyte costs no more than maxString), never between the halves of a pair.
    const end = isHighSurrogate(out.charCodeAt(maxString - 1)) ? maxString - 1 : maxString;
    out = out.slice(0, end) + CLIPPED_MARKER;
    report.clipped++;
  }
  return out.replace(REFUSED, (ch) => {
    report.replaced++;
    if (report.refused && report.refused.size < 8) report.refused.add(`U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
    return REPLACEMENT;
  });
}

/**
 * A parsed JSON-like value made safe: every string (keys too) cleaned, depth and item counts capped.
 * Non-JSON values (functions, symbols, bigint) become null; non-finite numbers become null, as JSON does.
 * Iterative over depth is not needed: recursion stops at maxDepth, so the stack stays shallow.
 */
export function cleanValue(value: unknown, limits: Partial<CleanLimits> = {}, report: CleanReport = emptyReport()): unknown {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return cleanText(v, l.maxString, report);
    if (typeof v === "number") return Number.isFinite(v) ? v : null;
    if (typeof v === "boolean" || v === null) return v;
    if (v === undefined) return undefined;
    if (typeof v !== "object") return null;
    if (depth >= l.maxDepth) {
      report.dropped++;
      return TOO_DEEP_MARKER;
    }
    if (v instanceof Date) return v;
    if (Array.isArray(v)) {
      if (v.length > l.maxItems) report.dropped += v.length - l.maxItems;
      return v.slice(0, l.maxItems).map((item) => walk(item, depth + 1) ?? null);
    }
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const key of Object.keys(v)) {
      if (count++ >= l.maxItems) {
        report.dropped++;
        continue;
      }
      const cleaned = walk((v as Record<string, unknown>)[key], depth + 1);
      if (cleaned !== undefined) out[cleanText(key, 256, report)] = cleaned;
    }
    return out;
  };
  return walk(value, 0);
}

const REFUSED_ONE = new RegExp(REFUSED.source);

/**
 * Whether cleanValue would return the value unchanged (no refused character, nothing too long, deep or many):
 * a read-only walk, so clean input (the usual case) is neither copied nor allocated again.
 */
export function isClean(value: unknown, limits: Partial<CleanLimits> = {}): boolean {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "string") {
      if (v.length > l.maxString || REFUSED_ONE.test(v)) return false;
      continue;
    }
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return false;
      continue;
    }
    if (v === null || v === undefined || typeof v === "boolean" || v instanceof Date) continue;
    if (typeof v !== "object") return false;
    if (depth >= l.maxDepth) return false;
    if (Array.isArray(v)) {
      if (v.length > l.maxItems) return false;
      for (const item of v) {
        if (item === undefined) return false; // cleanValue writes null there
        stack.push([item, depth + 1]);
      }
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > l.maxItems) return false;
    for (const key of keys) {
      if (key.length > 256 || REFUSED_ONE.test(key)) return false;
      stack.push([(v as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return true;
}

/** The nesting depth of a value, counted without recursion (so a hostile 100,000-deep value cannot overflow). */
export function depthOf(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d > max) max = d;
    if (max > stopAt) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, d + 1]);
  }
  return max;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
