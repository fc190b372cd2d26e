import { defineConfig } from "@playwright/test";
export default defineConfig({
  testDir: "/work/wt-edge/e2e",
  testMatch: /fuzz\.spec\.ts/,
  workers: 1,
  timeout: 400_000,
  reporter: [["list"]],
  use: { baseURL: "http://127.0.0.1:3301" },
});
