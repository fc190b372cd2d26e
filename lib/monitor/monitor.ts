import "server-only";
import { composeClusterHealth, type ClusterHealth } from "@/lib/health/cluster-health";
import { connect } from "@/lib/kube/client";
import { collect, type CollectTarget, type Sources } from "./collect";

// One polling loop per cluster inside the server process. Pages and APIs read the latest health
// from memory, so any number of open tabs costs the cluster nothing. (Watches, a Postgres-held
// lock across replicas and history come with the rest of live health.)

export interface Monitored {
  target: CollectTarget;
  simulated: boolean;
  sources: Sources;
  health?: ClusterHealth;
  timer?: NodeJS.Timeout;
}

const KEY = Symbol.for("faultline.monitors");
type Store = Record<symbol, Map<string, Monitored> | undefined>;

function monitors(): Map<string, Monitored> {
  const store = globalThis as unknown as Store;
  store[KEY] ??= new Map();
  return store[KEY];
}

export async function pollOnce(entry: Monitored, now: () => Date = () => new Date()): Promise<ClusterHealth> {
  let access;
  try {
    access = connect(entry.target.cluster);
  } catch {
    access = undefined;
  }
  entry.sources = await collect(entry.target, entry.sources, now, access);
  entry.health = composeClusterHealth({ name: entry.target.cluster.name, simulated: entry.simulated, intervalSeconds: entry.target.cluster.intervalSeconds, sources: entry.sources, now: now() });
  return entry.health;
}

export function startMonitor(target: CollectTarget, opts: { simulated: boolean; pollSeconds: number }): Monitored {
  const map = monitors();
  const previous = map.get(target.cluster.name);
  if (previous?.timer) clearInterval(previous.timer);
  const entry: Monitored = { target, simulated: opts.simulated, sources: {} };
  map.set(target.cluster.name, entry);
  let running = false;
  const tick = async () => {
    if (running) return; // a slow cluster never stacks up overlapping rounds
    running = true;
    try {
      await pollOnce(entry);
    } catch (error) {
      console.error(`[faultline] monitor ${target.cluster.name}: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  void tick();
  entry.timer = setInterval(tick, opts.pollSeconds * 1000);
  entry.timer.unref();
  return entry;
}

export function listClusterHealth(): ClusterHealth[] {
  return [...monitors().values()].flatMap((m) => (m.health ? [m.health] : []));
}

export function getClusterHealth(name: string): ClusterHealth | undefined {
  return monitors().get(name)?.health;
}

export function listMonitoredNames(): string[] {
  return [...monitors().keys()];
}
