import { cleanText } from "@/lib/text/outside-text";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import type { Signal, SignalStatus } from "@/lib/signals/signal-model";

// Which signals of a cluster become series (docs/metrics.md): at most SUBJECTS_PER_SIGNAL subjects per cluster
// and signal, the worst states first, so a failure on 5,000 nodes cannot blow up Prometheus; the rest are counted.

export const SIGNAL_STATES: readonly SignalStatus[] = ["ok", "warning", "critical", "unknown"];
/** Subjects exported per cluster and signal; the ones past it are counted in faultline_signal_subjects_omitted. */
export const SUBJECTS_PER_SIGNAL = 100;
/**
 * A label value longer than this is clipped. Subjects come from cluster objects (node names, key ids); this is far
 * above any Faultline makes, and an alert joins Faultline's member only when the value arrives whole.
 */
export const LABEL_VALUE_LIMIT = 1_024;

const RANK: Record<SignalStatus, number> = { critical: 0, warning: 1, unknown: 2, ok: 3 };

/** A label value from outside: control characters and lone surrogates replaced (as the webhook does), bounded. */
export function labelValue(text: string): string {
  return cleanText(text, LABEL_VALUE_LIMIT);
}

export interface SignalSeries {
  signal: string;
  subject: string;
  state: SignalStatus;
}

export interface BoundedSignals {
  series: SignalSeries[];
  /** Per signal id, how many subjects were left out. */
  omitted: Map<string, number>;
}

/**
 * The signals to export: per signal, the worst states first and then by subject, so which subjects are kept does
 * not change from scrape to scrape while nothing changes. Two signals with the same id and subject count once.
 */
export function boundSignals(signals: readonly Signal[], cap = SUBJECTS_PER_SIGNAL): BoundedSignals {
  const bySignal = new Map<string, Map<string, SignalStatus>>();
  for (const s of signals) {
    const subjects = bySignal.get(s.id) ?? new Map<string, SignalStatus>();
    const subject = labelValue(s.subject);
    const held = subjects.get(subject);
    if (!held || RANK[s.state] < RANK[held]) subjects.set(subject, s.state);
    bySignal.set(s.id, subjects);
  }
  const series: SignalSeries[] = [];
  const omitted = new Map<string, number>();
  for (const [signal, subjects] of bySignal) {
    const ordered = [...subjects].sort(([a, sa], [b, sb]) => RANK[sa] - RANK[sb] || (a < b ? -1 : a > b ? 1 : 0));
    for (const [subject, state] of ordered.slice(0, cap)) series.push({ signal, subject, state });
    omitted.set(signal, Math.max(0, ordered.length - cap));
  }
  return { series, omitted };
}

export interface SourceSeries {
  source: string;
  up: boolean;
  lastSuccessSeconds?: number;
  watch?: { lists: number; reconnects: number; stalls: number; expired: number };
}

/** Per source of a cluster: up, the last success as Unix seconds, and its watch counters when it is a watch. */
export function sourceSeries(health: Pick<ClusterHealth, "sources">): SourceSeries[] {
  return health.sources.map((s) => {
    const at = s.lastSuccess ? Date.parse(s.lastSuccess) / 1000 : NaN;
    return {
      source: labelValue(s.name),
      up: s.up,
      ...(Number.isFinite(at) ? { lastSuccessSeconds: at } : {}),
      ...(s.watch ? { watch: { lists: s.watch.lists, reconnects: s.watch.reconnects, stalls: s.watch.stalls, expired: s.watch.expired } } : {}),
    };
  });
}
