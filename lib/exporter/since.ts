import type { SignalStatus } from "@/lib/signals/signal-model";

// Since when each exported signal has been in its state: the check time of the first health this process saw in
// that state, or the store's start of it when earlier. Fed with every published health, forgetting what is gone.

interface Held {
  state: SignalStatus;
  since: number;
}

export class SinceTracker {
  private readonly clusters = new Map<string, Map<string, Held>>();

  /** One cluster's signals as of `at` (ms): a new state starts now, an unchanged one keeps its start. */
  observe(cluster: string, signals: readonly { signal: string; subject: string; state: SignalStatus }[], at: number): void {
    const before = this.clusters.get(cluster) ?? new Map<string, Held>();
    const after = new Map<string, Held>();
    for (const s of signals) {
      const key = `${s.signal}\u0000${s.subject}`;
      const held = before.get(key);
      after.set(key, held && held.state === s.state ? held : { state: s.state, since: at });
    }
    this.clusters.set(cluster, after);
  }

  /** When the signal's current state began (ms), if it is known in that state. */
  since(cluster: string, signal: string, subject: string, state: SignalStatus): number | undefined {
    const held = this.clusters.get(cluster)?.get(`${signal}\u0000${subject}`);
    return held && held.state === state ? held.since : undefined;
  }

  /**
   * What the store says a state began (signal_states.since, which outlives a restart): taken where the state is the
   * same and began earlier than this process first saw it.
   */
  seed(cluster: string, rows: readonly { signal: string; subject: string; state: string; since: number }[]): void {
    const held = this.clusters.get(cluster);
    if (!held) return;
    for (const row of rows) {
      const entry = held.get(`${row.signal}\u0000${row.subject}`);
      if (entry && entry.state === row.state && row.since < entry.since) entry.since = row.since;
    }
  }

  /** Clusters no longer monitored are forgotten. */
  keepOnly(clusters: readonly string[]): void {
    for (const name of [...this.clusters.keys()]) if (!clusters.includes(name)) this.clusters.delete(name);
  }
}
