import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";
import base from "../playwright.config";

// /health at a large-ish demo cluster (500 nodes, to stay quick): a server of its own, so the main suite's
// 3-node cluster is untouched (run one after the other). `npx playwright test -c e2e/health-scale.config.ts` (scripts/test.sh runs it too).
// The main suite's port (e2e/helpers.ts sends it as Origin): the two runs never overlap.
const PORT = Number(process.env.FAULTLINE_E2E_PORT ?? 3100);
const server = base.webServer as Extract<PlaywrightTestConfig["webServer"], { command: string }>;

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "health-scale.scale.ts",
  outputDir: "../test-results/e2e-scale",
  reporter: [["list"], ["json", { outputFile: "../test-results/e2e-scale.json" }]],
  use: { ...base.use, baseURL: `http://127.0.0.1:${PORT}` },
  webServer: {
    ...server,
    url: `http://127.0.0.1:${PORT}/api/readyz`,
    env: {
      ...server.env,
      PORT: String(PORT),
      FAULTLINE_DATA_DIR: ".data/e2e-scale",
      FAULTLINE_DEMO_NODES: "500",
    },
  },
});
