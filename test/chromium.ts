// Debian's Chromium as every browser run here launches it (Playwright's own browser download cannot be reached):
// the end-to-end tests (playwright.config.ts) and the health benchmark (scripts/bench-health-server.ts).
export const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};
