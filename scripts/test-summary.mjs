// The closing lines of `npm test`, from the Vitest and Playwright JSON reports: every test that failed (or passed
// only on a retry), by name and first line of its error, then one count line. Exits non-zero when a test failed,
// a report is missing, or a run exited non-zero (its message comes as an argument from scripts/test.sh).
import { existsSync, readFileSync } from "node:fs";
import { firstLine, vitestFailures } from "./test-report.mjs";

const problems = process.argv.slice(2);
const read = (file) => {
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  problems.push(`${file} is missing: its run stopped before reporting`);
  return undefined;
};
const failed = [];
const flaky = [];

const vitest = read("test-results/vitest.json");
// A file that failed outside its tests (a hook, an import) has no failed test to name: it is named alone.
if (vitest) for (const { name, error } of vitestFailures(vitest)) failed.push(`${name}: ${error}`);

function walk(suite, file, report) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const name = `${spec.file ?? file}:${spec.line} › ${spec.title}`;
      const error = test.results?.flatMap((result) => result.errors ?? [])[0];
      if (test.status === "unexpected") report.failed.push(`${name}: ${firstLine(error?.message)}`);
      if (test.status === "flaky") report.flaky.push(`${name}: passed on a retry after ${firstLine(error?.message)}`);
    }
  }
  for (const child of suite.suites ?? []) walk(child, suite.file ?? file, report);
}

const e2eRuns = [read("test-results/e2e.json"), read("test-results/e2e-scale.json"), read("test-results/e2e-fleet.json")].filter(Boolean);
for (const run of e2eRuns) for (const suite of run.suites ?? []) walk(suite, suite.file, { failed, flaky });

const sum = (pick) => e2eRuns.reduce((total, run) => total + pick(run.stats), 0);
const e2e = {
  expected: sum((s) => s.expected),
  unexpected: sum((s) => s.unexpected),
  flaky: sum((s) => s.flaky),
  skipped: sum((s) => s.skipped),
};
const unit = vitest ?? { numPassedTests: 0, numFailedTests: 0, numTotalTests: 0, numPendingTests: 0, numTodoTests: 0 };
const passed = unit.numPassedTests + e2e.expected + e2e.flaky;
const failedCount = unit.numFailedTests + e2e.unexpected;
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped;

if (flaky.length > 0) console.log(`\npassed only on a retry (${flaky.length}):\n${flaky.map((line) => `  ${line}`).join("\n")}`);
if (failed.length > 0) console.log(`\nfailed (${failed.length}):\n${failed.map((line) => `  ${line}`).join("\n")}`);
if (problems.length > 0) console.log(`\n${problems.join("\n")}`);
console.log(`\nunit ${unit.numPassedTests}/${unit.numTotalTests}, end-to-end ${e2e.expected}/${e2e.expected + e2e.unexpected + e2e.flaky + e2e.skipped}`);
console.log(`tests: ${passed} passed, ${failedCount} failed, ${skipped} skipped`);
process.exit(failedCount > 0 || failed.length > 0 || problems.length > 0 ? 1 : 0);
