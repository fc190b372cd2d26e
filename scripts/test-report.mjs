// Reading the test runners' JSON reports, for npm test's closing summary (test-summary.mjs) and npm run test:shake.

/** The first non-empty line of an error text, colours removed, at most 240 characters. */
export const firstLine = (text) =>
  String(text ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((line) => line.trim())
    .find(Boolean)
    ?.slice(0, 240) ?? "";

/** Every failed test of a Vitest JSON report as { name, error }; a file that failed outside its tests is named alone. */
export function vitestFailures(report, cwd = process.cwd()) {
  const failed = [];
  for (const file of report.testResults ?? []) {
    const where = file.name.replace(`${cwd}/`, "");
    const assertions = file.assertionResults ?? [];
    for (const test of assertions)
      if (test.status === "failed") failed.push({ name: `${where} › ${test.fullName}`, error: firstLine(test.failureMessages?.[0]) });
    if (file.status === "failed" && !assertions.some((test) => test.status === "failed"))
      failed.push({ name: where, error: firstLine(file.message) || "the file failed outside its tests" });
  }
  return failed;
}
