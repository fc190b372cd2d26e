import type { ClusterHealth, ServerMatrix } from "@/lib/signals/cluster-health";
import type { KmsCell, KmsMatrix, KmsRow } from "@/lib/model/kms-matrix";
import type { Signal } from "@/lib/signals/signal-model";

// What changed between two healths of one cluster, as a push an open page applies to the health it holds.
// Pure and client-safe. Only the top-level parts that changed travel; signals, matrix rows and cells travel
// per entry, keyed by identity, so one cell turning red on 5,000 nodes is a push of one cell. A cell (or a
// signal whose evidence is a cell) whose only change is its age is not sent: the page recomputes the age from
// the matrix's new `now`, and the diff checks that this gives exactly the new value before leaving it out.

/** Entries of a keyed list that changed (`put`), left (`drop`), and the full key order when it moved. */
export interface ListPatch<T> {
  put?: T[];
  drop?: string[];
  order?: string[];
}
export interface MatrixPatch {
  set?: Partial<KmsMatrix>;
  rows?: ListPatch<KmsRow>;
  cells?: ListPatch<KmsCell>;
}
export interface HealthPatch {
  set?: Partial<ClusterHealth>;
  unset?: (keyof ClusterHealth)[];
  signals?: ListPatch<Signal>;
  matrix?: MatrixPatch;
  serverMatrices?: { server: ServerMatrix["server"]; matrix: MatrixPatch }[];
}
export interface HealthPush {
  cluster: string;
  version: number;
  /** The version this push applies to; null when the patch is the whole health. */
  base: number | null;
  patch: HealthPatch;
}
type Versioned<H> = H & { version: number };
export type VersionedHealth = Versioned<ClusterHealth>;

export const signalKey = (s: Signal) => JSON.stringify([s.id, s.subject]);
export const cellKey = (c: KmsCell) => JSON.stringify([c.node, c.keyID, c.source]);
const rowKey = (r: KmsRow) => r.node;

/** The push that turns `previous` (at `base`) into `next` (at `version`); the whole health when there is no previous. */
export function diffHealth(previous: ClusterHealth | undefined, next: ClusterHealth, version: number, base: number | null): HealthPush {
  if (!previous || base === null) return { cluster: next.name, version, base: null, patch: { set: { ...next } } };
  const patch: HealthPatch = {};
  const set: Record<string, unknown> = {};
  const unset: (keyof ClusterHealth)[] = [];
  for (const key of new Set([...Object.keys(previous), ...Object.keys(next)]) as Set<keyof ClusterHealth>) {
    if (KEYED.has(key)) continue;
    if (!(key in next)) unset.push(key);
    else if (!same(previous[key], next[key])) set[key] = next[key];
  }
  const now = clockOf(next);
  const signals = diffList(previous.signals, next.signals, signalKey, (a, b) => same(agedSignal(a, now), b));
  if (signals === "whole") set.signals = next.signals;
  else if (signals) patch.signals = signals;
  const matrix = previous.matrix && next.matrix ? diffMatrix(previous.matrix, next.matrix) : "whole";
  if (matrix === "whole") {
    if (!next.matrix) {
      if (previous.matrix) unset.push("matrix");
    } else set.matrix = next.matrix;
  } else if (matrix) patch.matrix = matrix;
  const servers = diffServers(previous.serverMatrices, next.serverMatrices);
  if (servers === "whole") set.serverMatrices = next.serverMatrices;
  else if (servers) patch.serverMatrices = servers;
  if (Object.keys(set).length > 0) patch.set = set as Partial<ClusterHealth>;
  if (unset.length > 0) patch.unset = unset;
  return { cluster: next.name, version, base, patch };
}

/**
 * The cached health with the push applied; undefined when the push does not follow the cached version. `H` is what
 * the page holds and the push was diffed from: the whole health, or its view (lib/signals/health-view.ts).
 */
export function applyHealthPush<H extends ClusterHealth = ClusterHealth>(cached: Versioned<H> | undefined, push: HealthPush): Versioned<H> | undefined {
  // A whole push carries every field of what it was diffed from.
  if (push.base === null) return { ...(push.patch.set as H), version: push.version };
  if (!cached || cached.version !== push.base || cached.name !== push.cluster) return undefined;
  const { patch } = push;
  const out: VersionedHealth = withoutKeys({ ...cached, ...patch.set, version: push.version }, patch.unset ?? []);
  if (patch.matrix && cached.matrix) out.matrix = applyMatrix(cached.matrix, patch.matrix);
  if (patch.serverMatrices) {
    const byServer = new Map(patch.serverMatrices.map((p) => [p.server, p.matrix]));
    out.serverMatrices = cached.serverMatrices.map((m) => (byServer.has(m.server) ? { ...m, matrix: applyMatrix(m.matrix, byServer.get(m.server)!) } : m));
  }
  if (!patch.set?.signals) {
    const now = clockOf(out);
    const signals = cached.signals.map((s) => agedSignal(s, now));
    out.signals = patch.signals ? applyList(signals, patch.signals, signalKey) : signals;
  }
  // The parts the push names are as the sender's H had them, the others are cached's own: an H still.
  return out as Versioned<H>;
}

/** A copy of `value` without `keys` (the fields a push unsets). */
function withoutKeys<T extends object>(value: T, keys: readonly string[]): T {
  const copy = { ...value };
  for (const key of keys) Reflect.deleteProperty(copy, key);
  return copy;
}

function diffServers(previous: ServerMatrix[], next: ServerMatrix[]): HealthPatch["serverMatrices"] | "whole" | undefined {
  if (previous.length !== next.length || previous.some((m, i) => m.server !== next[i].server || m.cr !== next[i].cr)) return "whole";
  const out: NonNullable<HealthPatch["serverMatrices"]> = [];
  for (let i = 0; i < next.length; i++) {
    const patch = diffMatrix(previous[i].matrix, next[i].matrix);
    if (patch === "whole") return "whole";
    if (patch) out.push({ server: next[i].server, matrix: patch });
  }
  return out.length > 0 ? out : undefined;
}

function diffMatrix(previous: KmsMatrix, next: KmsMatrix): MatrixPatch | "whole" | undefined {
  const patch: MatrixPatch = {};
  const set: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(next)]) as Set<keyof KmsMatrix>) {
    if (key === "rows" || key === "cells") continue;
    if (!(key in next)) return "whole";
    if (!same(previous[key], next[key])) set[key] = next[key];
  }
  const rows = diffList(previous.rows, next.rows, rowKey, same);
  const cells = diffList(previous.cells, next.cells, cellKey, (a, b) => same(aged(a, next.now), b));
  if (rows === "whole" || cells === "whole") return "whole";
  if (Object.keys(set).length > 0) patch.set = set as Partial<KmsMatrix>;
  if (rows) patch.rows = rows;
  if (cells) patch.cells = cells;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function applyMatrix(cached: KmsMatrix, patch: MatrixPatch): KmsMatrix {
  const now = patch.set?.now ?? cached.now;
  const cells = cached.cells.map((c) => aged(c, now));
  return {
    ...cached,
    ...patch.set,
    rows: patch.rows ? applyList(cached.rows, patch.rows, rowKey) : cached.rows,
    cells: patch.cells ? applyList(cells, patch.cells, cellKey) : cells,
  };
}

/** A cell as the clock at `now` shows it, when its report has not changed (as buildKmsMatrix computes the age). */
function aged(cell: KmsCell, now: string): KmsCell {
  const ageSeconds = (Date.parse(now) - Date.parse(cell.lastChecked)) / 1000;
  return Number.isNaN(ageSeconds) || ageSeconds === cell.ageSeconds ? cell : { ...cell, ageSeconds };
}

/** A signal whose evidence is a matrix cell (kms.plugin.unhealthy), with the cell's age at `now`. */
function agedSignal(signal: Signal, now: string | undefined): Signal {
  const cell = signal.evidence as Partial<KmsCell> | null;
  if (now === undefined || typeof cell !== "object" || cell === null || typeof cell.lastChecked !== "string" || typeof cell.ageSeconds !== "number")
    return signal;
  const evidence = aged(cell as KmsCell, now);
  return evidence === cell ? signal : { ...signal, evidence };
}

/** The compose time the matrices' ages count from. */
const clockOf = (health: ClusterHealth) => health.matrix?.now ?? health.serverMatrices?.[0]?.matrix.now;
const KEYED = new Set<string>(["signals", "matrix", "serverMatrices", "version"]);

/** Entries of `next` that differ from `previous`, by key; "whole" when keys are not unique (then identity means nothing). */
function diffList<T>(previous: T[], next: T[], keyOf: (t: T) => string, equal: (before: T, after: T) => boolean): ListPatch<T> | "whole" | undefined {
  const before = new Map(previous.map((t) => [keyOf(t), t]));
  const after = next.map(keyOf);
  if (before.size !== previous.length || new Set(after).size !== next.length) return "whole";
  const patch: ListPatch<T> = {};
  const put = next.filter((t, i) => !before.has(after[i]) || !equal(before.get(after[i])!, t));
  const kept = new Set(after);
  const drop = [...before.keys()].filter((k) => !kept.has(k));
  if (put.length > 0) patch.put = put;
  if (drop.length > 0) patch.drop = drop;
  // Entries stay in place and new ones go last; when that is not the order of `next`, the order travels too.
  const placed = [...previous.map(keyOf).filter((k) => kept.has(k)), ...after.filter((k) => !before.has(k))];
  if (placed.some((k, i) => k !== after[i])) patch.order = after;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function applyList<T>(cached: T[], patch: ListPatch<T>, keyOf: (t: T) => string): T[] {
  const byKey = new Map(cached.map((t) => [keyOf(t), t]));
  const order = cached.map(keyOf);
  for (const key of patch.drop ?? []) byKey.delete(key);
  for (const t of patch.put ?? []) {
    const key = keyOf(t);
    if (!byKey.has(key)) order.push(key);
    byKey.set(key, t);
  }
  return (patch.order ?? order).flatMap((key) => (byKey.has(key) ? [byKey.get(key)!] : []));
}

/** Structural equality of JSON values (what the page holds after a fetch or a push). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => same(x, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
