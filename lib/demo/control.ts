import "server-only";
import { Conflict, NotFound } from "@/lib/errors";
import { listScenarios, setScenario } from "@/lib/demo/cluster/scenarios";
import { getDemoCluster } from "./runtime";
import type { ApiServerChange, ScenarioChange } from "./schemas";
import { readDemoSnapshot } from "./snapshot";

// The demo cluster as the API shows and drives it: what runs, and the changes a game day makes.

async function runningDemo() {
  const demo = await getDemoCluster();
  if (!demo) throw new Conflict("the demo cluster is not running");
  return demo;
}

/** Where the demo cluster listens, its scenarios and what it says now. */
export async function readDemo() {
  const demo = await getDemoCluster();
  if (!demo)
    throw new NotFound("the demo cluster is not running (FAULTLINE_DEMO=off, or it failed to start: see the server log)", { extra: { running: false } });
  return {
    running: true,
    simulated: true,
    url: demo.sim.endpoints.url,
    kubeconfig: demo.sim.kubeconfigPath,
    scenarios: listScenarios(demo.cluster),
    now: readDemoSnapshot(demo.cluster),
  };
}

/**
 * Injects (on) or clears a scenario; the scenarios after, and how to tell that a monitor has read the change: the
 * reporters write their reports at once (not at their next interval), then every open watch gets a bookmark at
 * `resourceVersion`. A watch that reached it has read the change; a source read after `at` has seen it.
 */
export async function setDemoScenario(id: string, on: boolean, change: ScenarioChange) {
  const demo = await runningDemo();
  await setScenario(demo.cluster, id, on, change);
  demo.cluster.report();
  const resourceVersion = demo.sim.server.bookmarkNow();
  return { scenarios: listScenarios(demo.cluster), at: new Date().toISOString(), resourceVersion };
}

/** Takes the simulated API server (and its endpoints) down, or brings it back on the same port. */
export async function setDemoApiServer({ state }: ApiServerChange) {
  const server = (await runningDemo()).sim.server;
  if (state === "down") await server.stop();
  else if (!server.running) await server.start();
  return { state: server.running ? "up" : "down", url: server.endpoints().url };
}
