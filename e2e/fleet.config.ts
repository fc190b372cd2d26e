import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import base from "../playwright.config";

// A fleet, as a tester runs one: `npm run demo` starts six simulated clusters and writes a clusters file for them,
// then Faultline (`npm start`) watches them through it, the demo cluster off. A server of its own, after the main
// suite's (the same port; e2e/helpers.ts sends it as Origin): `npx playwright test -c e2e/fleet.config.ts`.
// e2e/fleet.spec.ts reads `metadata.fleet` to know it runs here; under playwright.config.ts it checks one cluster.

const PORT = Number(process.env.FAULTLINE_E2E_PORT ?? 3100);
const server = base.webServer as Extract<PlaywrightTestConfig["webServer"], { command: string }>;
export const FLEET = { clusters: 6, name: "fleet", dir: ".data/e2e-fleet", label: "env=e2e" };

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "fleet.spec.ts",
  outputDir: "../test-results/e2e-fleet",
  reporter: [["list"], ["json", { outputFile: "../test-results/e2e-fleet.json" }]],
  metadata: { fleet: FLEET },
  use: { ...base.use, baseURL: `http://127.0.0.1:${PORT}` },
  webServer: [
    {
      // npm runs it from the package's folder, as it runs npm start: the paths below are relative to it.
      command: `npm run demo -- --clusters ${FLEET.clusters} --cluster ${FLEET.name} --interval 2s --dir ${FLEET.dir}/demo --clusters-file ${FLEET.dir}/clusters.yaml --label ${FLEET.label}`,
      // Printed once every cluster runs and the clusters file is written whole.
      wait: { stdout: /clusters file for Faultline: / },
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
    {
      ...server,
      url: `http://127.0.0.1:${PORT}/api/readyz`,
      env: {
        ...server.env,
        PORT: String(PORT),
        FAULTLINE_DATA_DIR: FLEET.dir,
        FAULTLINE_CLUSTERS_FILE: `${FLEET.dir}/clusters.yaml`,
      },
    },
  ],
});
