import { defineConfig } from "@playwright/test";
import fleet, { FLEET } from "./fleet.config";

// The fleet view at 100 simulated clusters (e2e/fleet-scale.scale.ts): its page's weight and a fault moving the last
// cluster first. `npx playwright test -c e2e/fleet-scale.config.ts`, on its own: 100 watched clusters are a load.
// Faultline polls every 5 s here (each cluster is about five probes per poll); watches still bring changes at once.

const SCALE = { ...FLEET, clusters: 100, dir: ".data/e2e-fleet-scale" };
const [demo, server] = fleet.webServer as Extract<NonNullable<typeof fleet.webServer>, unknown[]>;

export default defineConfig({
  ...fleet,
  testMatch: "fleet-scale.scale.ts",
  outputDir: "../test-results/e2e-fleet-scale",
  reporter: [["list"], ["json", { outputFile: "../test-results/e2e-fleet-scale.json" }]],
  metadata: { fleet: SCALE },
  webServer: [
    {
      ...demo,
      command: `npm run demo -- --clusters ${SCALE.clusters} --cluster ${SCALE.name} --interval 5s --dir ${SCALE.dir}/demo --clusters-file ${SCALE.dir}/clusters.yaml --label ${SCALE.label}`,
    },
    {
      ...server,
      timeout: 600_000,
      env: { ...server.env, FAULTLINE_DATA_DIR: SCALE.dir, FAULTLINE_CLUSTERS_FILE: `${SCALE.dir}/clusters.yaml`, FAULTLINE_POLL_SECONDS: "5" },
    },
  ],
});
