import { defineConfig } from "@playwright/test";
import { CHROMIUM } from "./test/chromium";

// Debian's Chromium (Playwright's own browser download cannot be reached here) against a
// production server started exactly as a user starts it: `npm start`, with its own data folder.
// FAULTLINE_E2E_PORT lets two checkouts run their end-to-end tests side by side.
const PORT = Number(process.env.FAULTLINE_E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }], ["html", { open: "never", outputFolder: "test-results/report" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: CHROMIUM,
  },
  webServer: {
    command: "npm start",
    url: `http://127.0.0.1:${PORT}/api/readyz`,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      FAULTLINE_DATA_DIR: ".data/e2e",
      FAULTLINE_DEMO_INTERVAL_SECONDS: "2",
      FAULTLINE_POLL_SECONDS: "1",
      // As e2e/helpers.ts sends it: Alertmanager's deliveries carry it (docs/auth.md).
      FAULTLINE_WEBHOOK_TOKEN: "e2e-webhook-token-not-a-secret-0001",
      // Incidents open and resolve within seconds, so e2e/incidents.spec.ts does not wait minutes.
      FAULTLINE_INCIDENT_RULES: JSON.stringify({
        openAfterObservations: 2,
        openAfterSeconds: 2,
        resolveAfterSeconds: 5,
        groupWindowSeconds: 10,
        reopenWindowSeconds: 3,
      }),
    },
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
