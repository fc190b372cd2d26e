import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // "server-only" throws outside React's server build; unit tests run plain Node.
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two files at a time: on a 2-core machine Vitest would run one (cores - 1), and most of the suite waits on
    // servers, watches and Prometheus scrapes rather than computing; the waits overlap. npm run test:shake checks
    // that the tests hold beside a CPU hog this way.
    maxWorkers: 2,
  },
});
