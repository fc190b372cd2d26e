import path from "node:path";
import { loadEnv } from "@/lib/env";
import { processSlot } from "@/lib/process-slot";
import type { DemoCluster } from "@/lib/demo/cluster/cluster";
import { startSimulatedCluster, type RunningDemo } from "@/lib/demo/cluster/start";

// The demo cluster that runs inside the server process while no real cluster is configured.
// Kept on globalThis: instrumentation starts it, route handlers (another bundle) drive it.

const demo = processSlot<Promise<RunningDemo>>("demo");

export function startDemoCluster(): Promise<RunningDemo> | undefined {
  const env = loadEnv();
  if (env.FAULTLINE_DEMO === "off" || env.FAULTLINE_CLUSTERS_FILE) return undefined;
  return demo.getOrCreate(() =>
    startSimulatedCluster({
      name: "demo",
      nodes: env.FAULTLINE_DEMO_NODES,
      intervalMs: env.FAULTLINE_DEMO_INTERVAL_SECONDS * 1000,
      // A real API server's cadence (about once a minute) unless FAULTLINE_DEMO_BOOKMARK_SECONDS says otherwise.
      bookmarkIntervalMs: env.FAULTLINE_DEMO_BOOKMARK_SECONDS * 1000,
      // Absolute, so the kubectl command the Game day page prints works from any directory.
      dir: path.resolve(env.FAULTLINE_DATA_DIR, "demo"),
    }),
  );
}

export async function getDemoCluster(): Promise<{ cluster: DemoCluster; sim: RunningDemo } | undefined> {
  const pending = demo.get();
  const sim = await pending?.catch(() => undefined);
  return sim ? { cluster: sim.server.cluster, sim } : undefined;
}

/** The demo API server's bookmark interval in seconds (the monitor's stall bound follows it). */
export function demoBookmarkSeconds(): number {
  return loadEnv().FAULTLINE_DEMO_BOOKMARK_SECONDS;
}

export function isDemoEnabled(): boolean {
  return loadEnv().FAULTLINE_DEMO === "on";
}
