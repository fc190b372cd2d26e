// One closing line for the whole of `npm test`, from the Vitest and Playwright JSON reports.
import { readFileSync } from "node:fs";

const vitest = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
const e2e = JSON.parse(readFileSync("test-results/e2e.json", "utf8"));
const passed = vitest.numPassedTests + e2e.stats.expected + e2e.stats.flaky;
const failed = vitest.numFailedTests + e2e.stats.unexpected;
const skipped = vitest.numPendingTests + vitest.numTodoTests + e2e.stats.skipped;
console.log(
  `\nunit ${vitest.numPassedTests}/${vitest.numTotalTests}, end-to-end ${e2e.stats.expected}/${e2e.stats.expected + e2e.stats.unexpected + e2e.stats.flaky + e2e.stats.skipped}`,
);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
