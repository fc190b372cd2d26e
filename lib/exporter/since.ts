import type { SignalStatus } from "@/lib/signals/signal-model";

// Since when each exported signal has been in its state: the check time of the first health this process saw in
// that state. Fed with every health the monitor publishes (not only at scrape time), forgetting what is gone.

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

  /** Clusters no longer monitored are forgotten. */
  keepOnly(clusters: readonly string[]): void {
    for (const name of [...this.clusters.keys()]) if (!clusters.includes(name)) this.clusters.delete(name);
  }
}
