// npm run test:shake -- [--runs N] [--hog N] [--e2e] [file or filter ...]
//
// Shakes out timing faults: runs the unit suite (or the chosen files) N times beside a CPU hog, the way a busy
// shared machine runs CI, and lists every test that failed in any run, with how often and its first error line.
// With --e2e it runs end-to-end specs instead (Playwright, which starts `npm start` each run).
//
// The hog is Debian's stress-ng when it is installed (one busy worker per core, at full load), else one busy Node
// loop per core. It starts before the first run and stops after the last, also on Ctrl-C.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { firstLine, vitestFailures } from "./test-report.mjs";

const USAGE = "usage: npm run test:shake -- [--runs N (1-100, default 5)] [--hog N (0-64 busy workers, default one per core)] [--e2e] [file or filter ...]";

function parse(argv) {
  const opts = { runs: 5, hog: availableParallelism(), e2e: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const number = (name, min, max) => {
      const raw = argv[++i];
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min || n > max)
        fail(`${name} takes a whole number from ${min} to ${max}, got ${raw === undefined ? "nothing" : JSON.stringify(raw)}`);
      return n;
    };
    if (arg === "--runs") opts.runs = number("--runs", 1, 100);
    else if (arg === "--hog") opts.hog = number("--hog", 0, 64);
    else if (arg === "--e2e") opts.e2e = true;
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith("-")) fail(`unknown option ${arg}`);
    else opts.files.push(arg);
  }
  return opts;
}

function fail(message) {
  console.error(`test:shake: ${message}\n${USAGE}`);
  process.exit(2);
}

/** Starts the CPU hog; returns its stop function. */
function startHog(workers) {
  if (workers === 0) return { what: "no CPU hog", stop: () => {} };
  const children = [];
  let what;
  if (existsSync("/usr/bin/stress-ng")) {
    children.push(spawn("/usr/bin/stress-ng", ["--cpu", String(workers), "--cpu-load", "100", "--quiet"], { stdio: "ignore" }));
    what = `stress-ng --cpu ${workers}`;
  } else {
    for (let i = 0; i < workers; i++) children.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
    what = `${workers} busy Node loop${workers === 1 ? "" : "s"}`;
  }
  return {
    what,
    stop: () => {
      for (const child of children) child.kill("SIGKILL");
    },
  };
}

/** Failed tests of one Vitest JSON report, as [name, first error line]. */
function vitestResult(report) {
  const failures = vitestFailures(report).map(({ name, error }) => [name, error]);
  return { failures, passed: report.numPassedTests ?? 0, total: report.numTotalTests ?? 0 };
}

/** Failed tests of one Playwright JSON report. */
function playwrightFailures(report) {
  const out = [];
  let passed = 0;
  let total = 0;
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        total++;
        if (test.status === "expected") passed++;
        else if (test.status !== "skipped") {
          const error = test.results?.flatMap((r) => r.errors ?? [])[0];
          out.push([`${spec.file ?? file} › ${spec.title}`, firstLine(error?.message) || test.status]);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  for (const error of report.errors ?? []) out.push(["(the run)", firstLine(error.message)]);
  return { failures: out, passed, total };
}

function runOnce(opts, outFile) {
  const args = opts.e2e
    ? ["playwright", "test", "--reporter=list,json", ...opts.files]
    : ["vitest", "run", "--reporter=dot", "--reporter=json", `--outputFile.json=${outFile}`, ...opts.files];
  const env = opts.e2e ? { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: outFile } : process.env;
  return new Promise((resolve) => {
    const child = spawn("npx", args, { stdio: ["ignore", "inherit", "inherit"], env });
    current = child;
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

let current;
const opts = parse(process.argv.slice(2));
// The browsers, Prometheus, Alertmanager and real Kubernetes clients the tests use, as npm test installs them.
const tools = spawnSync("bash", ["scripts/test.sh", "--tools-only"], { stdio: "inherit" });
if (tools.status !== 0) process.exit(tools.status ?? 1);
const dir = mkdtempSync(path.join(tmpdir(), "faultline-shake-"));
const hog = startHog(opts.hog);
const cleanup = () => {
  hog.stop();
  current?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  cleanup();
  process.exit(130);
});

const what = opts.files.length ? opts.files.join(" ") : opts.e2e ? "every end-to-end spec" : "the whole unit suite";
console.log(`test:shake: ${what}, ${opts.runs} run${opts.runs === 1 ? "" : "s"}, beside ${hog.what}`);
const seen = new Map();
const lines = [];
for (let run = 1; run <= opts.runs; run++) {
  const outFile = path.join(dir, `run-${run}.json`);
  const started = Date.now();
  const code = await runOnce(opts, outFile);
  const seconds = Math.round((Date.now() - started) / 1000);
  let result;
  if (existsSync(outFile)) {
    const report = JSON.parse(readFileSync(outFile, "utf8"));
    result = opts.e2e ? playwrightFailures(report) : vitestResult(report);
  } else result = { failures: [["(the run)", `no report: the run exited ${code} before reporting`]], passed: 0, total: 0 };
  if (code !== 0 && result.failures.length === 0) result.failures.push(["(the run)", `exited ${code} with no failed test named`]);
  for (const [name, error] of result.failures) {
    const entry = seen.get(name) ?? { runs: [], error };
    entry.runs.push(run);
    seen.set(name, entry);
  }
  const line = `run ${run}/${opts.runs}: ${result.passed}/${result.total} passed, ${result.failures.length} failed, ${seconds} s`;
  lines.push(line);
  console.log(`\ntest:shake: ${line}`);
}
cleanup();

console.log(`\ntest:shake summary (${what}, beside ${hog.what}):`);
for (const line of lines) console.log(`  ${line}`);
if (seen.size === 0) {
  console.log("no test failed in any run");
  process.exit(0);
}
console.log(`\nfailed in some run (${seen.size}):`);
for (const [name, { runs, error }] of [...seen].sort((a, b) => b[1].runs.length - a[1].runs.length)) {
  console.log(`  ${runs.length}/${opts.runs} (run ${runs.join(", ")}) ${name}\n      ${error}`);
}
process.exit(1);
