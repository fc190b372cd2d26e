import "server-only";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { getMetrics, renderMetrics } from "@/lib/metrics";
import { processSlot } from "@/lib/process-slot";
import { onHealth } from "@/lib/live/bus";
import { getClusterHealth, listClusterHealth, listMonitoredNames } from "@/lib/live/registry";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { countOpenIncidents, INCIDENT_SEVERITIES, loadStoredSince } from "./stored";
import { boundSignals, labelValue, SIGNAL_STATES, sourceSeries, type BoundedSignals } from "./signal-series";
import { SinceTracker } from "./since";

// Faultline as an exporter (docs/metrics.md, kube-state-metrics' conventions): each scrape reads the latest health
// of every cluster this process holds (lib/live/registry.ts), so a signal or source that is gone has no series.

interface Exporter {
  since: SinceTracker;
  rounds: Histogram<"cluster">;
  leadership: Counter<"cluster" | "to">;
  /** Per cluster: whether this process leads it, and the lease term it last saw. */
  roles: Map<string, { leading: boolean; term?: number }>;
  /** The faultline_signal_state family's text, rendered apart from prom-client's registry. */
  states: () => string;
}

const exporter = processSlot<Exporter>("exporter");

/** Registers Faultline's own metrics once per process (the monitor and the /metrics route both call it). */
export function ensureExporter(): Exporter {
  return exporter.getOrCreate(() => createExporter(getMetrics().registry));
}

function createExporter(registry: Registry): Exporter {
  const since = new SinceTracker();
  // A published health is never changed afterwards: what is derived from it is computed once, whatever scrapes.
  const tracked = new WeakSet<ClusterHealth>();
  const seeded = new Set<string>();
  const track = (health: ClusterHealth) => {
    if (tracked.has(health)) return;
    tracked.add(health);
    since.observe(health.name, exportedSignals(health), Date.parse(health.checkedAt) || Date.now());
    // Once per cluster and process: a state that began before a restart keeps its stored start.
    if (!seeded.has(health.name)) {
      seeded.add(health.name);
      void loadStoredSince(health.name).then((rows) => since.seed(health.name, rows));
    }
  };
  // By the signals' own identity: a round that changed no signal keeps the last round's list (lib/keep-unchanged.ts).
  const bounded = new WeakMap<ClusterHealth["signals"], ReturnType<typeof boundSignals>>();
  const derived = new WeakMap<ClusterHealth, { cluster: string; signals: ReturnType<typeof boundSignals>; sources: ReturnType<typeof sourceSeries> }>();
  const view = (h: ClusterHealth) => {
    let held = derived.get(h);
    if (!held) {
      let signals = bounded.get(h.signals);
      if (!signals) bounded.set(h.signals, (signals = boundSignals(h.signals)));
      derived.set(h, (held = { cluster: labelValue(h.name), signals, sources: sourceSeries(h) }));
    }
    return held;
  };
  // Every published health, so "since" is the check time of the change and not the scrape that first saw it.
  onHealth((push) => {
    const health = getClusterHealth(push.cluster);
    if (health) track(health);
  });
  const healths = () => {
    const all = listClusterHealth();
    since.keepOnly(all.map((h) => h.name));
    for (const h of all) track(h);
    return all.map((h) => ({ name: h.name, ...view(h) }));
  };
  const registers = [registry];

  new Gauge({
    name: "faultline_signal_state_since_timestamp_seconds",
    help: "Unix time the signal entered its current state, as first seen by this process.",
    labelNames: ["cluster", "signal", "subject"] as const,
    registers,
    collect() {
      this.reset();
      for (const { name, cluster, signals } of healths())
        for (const s of signals.series) {
          const at = since.since(name, s.signal, s.subject, s.state);
          if (at !== undefined) this.set({ cluster, signal: s.signal, subject: s.subject }, at / 1000);
        }
    },
  });
  new Gauge({
    name: "faultline_signal_subjects_omitted",
    help: `Subjects of a signal not exported because the cluster has more than the bound per signal (docs/metrics.md).`,
    labelNames: ["cluster", "signal"] as const,
    registers,
    collect() {
      this.reset();
      for (const { cluster, signals } of healths()) for (const [signal, n] of signals.omitted) this.set({ cluster, signal }, n);
    },
  });
  new Gauge({
    name: "faultline_source_up",
    help: "Whether the source (a watch or a probe of the cluster) answered at its latest attempt.",
    labelNames: ["cluster", "source"] as const,
    registers,
    collect() {
      this.reset();
      for (const { cluster, sources } of healths()) for (const s of sources) this.set({ cluster, source: s.source }, s.up ? 1 : 0);
    },
  });
  new Gauge({
    name: "faultline_source_last_success_timestamp_seconds",
    help: "Unix time the source last answered.",
    labelNames: ["cluster", "source"] as const,
    registers,
    collect() {
      this.reset();
      for (const { cluster, sources } of healths())
        for (const s of sources) if (s.lastSuccessSeconds !== undefined) this.set({ cluster, source: s.source }, s.lastSuccessSeconds);
    },
  });
  const watchCounter = (name: string, help: string, field: "lists" | "reconnects" | "stalls" | "expired") =>
    new Counter({
      name,
      help,
      labelNames: ["cluster", "source"] as const,
      registers,
      // The watches count these themselves (lib/sources/kube/watch.ts); a counter resets when the process restarts.
      collect() {
        this.reset();
        for (const { cluster, sources } of healths()) for (const s of sources) if (s.watch) this.inc({ cluster, source: s.source }, s.watch[field]);
      },
    });
  watchCounter("faultline_watch_lists_total", "LISTs a watch made (the first, and one after every restart).", "lists");
  watchCounter("faultline_watch_reconnects_total", "Times a watch reconnected after its stream ended or failed.", "reconnects");
  watchCounter("faultline_watch_stalls_total", "Times a watch heard nothing (no event, no bookmark) for its stall bound and was restarted.", "stalls");
  watchCounter("faultline_watch_expired_total", "Times the API server answered 410 Gone (resourceVersion too old) and the watch listed again.", "expired");
  new Gauge({
    name: "faultline_incidents_open",
    help: "Unresolved incidents (open or acknowledged) by cluster and severity.",
    labelNames: ["cluster", "severity"] as const,
    registers,
    async collect() {
      this.reset();
      const counts = await countOpenIncidents();
      if (!counts) return;
      // Every monitored cluster has its zeros, so `== 0` and absence mean different things.
      for (const h of listClusterHealth()) for (const severity of INCIDENT_SEVERITIES) this.set({ cluster: labelValue(h.name), severity }, 0);
      for (const c of counts) this.set({ cluster: c.cluster, severity: c.severity }, c.count);
    },
  });
  const rounds = new Histogram({
    name: "faultline_monitor_round_duration_seconds",
    help: "Time one monitor round took: probes, merge and compose (the store's commit and the incident rules run after it).",
    labelNames: ["cluster"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const roles = new Map<string, { leading: boolean; term?: number }>();
  const leadership = new Counter({
    name: "faultline_monitor_leadership_changes_total",
    help: "Times this process started (to=leader) or stopped (to=follower) reading a cluster itself (docs/replicas.md).",
    labelNames: ["cluster", "to"] as const,
    registers,
  });
  new Gauge({
    name: "faultline_monitor_leader",
    help: "1 when this process holds the cluster's monitor lease and reads the cluster itself, 0 when it serves the leader's reading.",
    labelNames: ["cluster"] as const,
    registers,
    collect() {
      this.reset();
      for (const name of listMonitoredNames()) {
        const role = roles.get(name);
        if (role) this.set({ cluster: labelValue(name) }, role.leading ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: "faultline_monitor_lease_term",
    help: "The cluster's monitor lease term as this process last saw it; it goes up by one at every takeover.",
    labelNames: ["cluster"] as const,
    registers,
    collect() {
      this.reset();
      for (const [name, role] of roles) if (role.term !== undefined) this.set({ cluster: labelValue(name) }, role.term);
    },
  });
  return { since, rounds, leadership, roles, states: () => signalStateFamily(healths()) };
}

const SIGNAL_STATE_HEAD = [
  "# HELP faultline_signal_state Each signal's state per cluster and subject: 1 for the current state, 0 for the others.",
  "# TYPE faultline_signal_state gauge",
].join("\n");

/** A label value in the exposition format: backslash, newline and double quote escaped (as prom-client does). */
const quoted = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`;

// A cluster's faultline_signal_state lines: one per signal, subject and state (four per subject, 40,000 lines at
// 100 clusters). Written as text once per signal list, which a round keeps while no signal changed
// (lib/keep-unchanged.ts): through prom-client's gauges every scrape made and dropped every series again.
const stateLines = new WeakMap<BoundedSignals, { cluster: string; text: string }>();
function clusterStateLines(cluster: string, signals: BoundedSignals): string {
  const held = stateLines.get(signals);
  if (held?.cluster === cluster) return held.text;
  const prefix = `faultline_signal_state{cluster=${quoted(cluster)},signal=`;
  const lines: string[] = [];
  for (const s of signals.series) {
    const head = `${prefix}${quoted(s.signal)},subject=${quoted(s.subject)},state=`;
    for (const state of SIGNAL_STATES) lines.push(`${head}${quoted(state)}} ${s.state === state ? 1 : 0}`);
  }
  const text = lines.join("\n");
  stateLines.set(signals, { cluster, text });
  return text;
}

function signalStateFamily(clusters: { cluster: string; signals: BoundedSignals }[]): string {
  const bodies = clusters.map((c) => clusterStateLines(c.cluster, c.signals)).filter((text) => text !== "");
  return [SIGNAL_STATE_HEAD, ...bodies].join("\n");
}

/** The monitor calls this after each lease check: whether this process leads the cluster, and the live term. */
export function observeLeadership(cluster: string, leading: boolean, term: number | undefined): void {
  const { roles, leadership } = ensureExporter();
  const before = roles.get(cluster);
  if (before && before.leading !== leading) leadership.inc({ cluster: labelValue(cluster), to: leading ? "leader" : "follower" });
  else if (!before && leading) leadership.inc({ cluster: labelValue(cluster), to: "leader" });
  roles.set(cluster, { leading, term });
}

function exportedSignals(health: ClusterHealth) {
  return health.signals.map((s) => ({ signal: s.id, subject: labelValue(s.subject), state: s.state }));
}

/** The monitor calls this after each round of a cluster it reads. */
export function observeMonitorRound(cluster: string, seconds: number): void {
  ensureExporter().rounds.observe({ cluster: labelValue(cluster) }, seconds);
}

/** What /metrics serves: the process and HTTP metrics and Faultline's own. */
export async function renderAllMetrics(): Promise<{ text: string; contentType: string }> {
  const { states } = ensureExporter();
  const { text, contentType } = await renderMetrics();
  return { text: `${text}\n${states()}\n`, contentType };
}
