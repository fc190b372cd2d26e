import { spawn, type ChildProcess } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { onFreePort, stillRunningAfterReady } from "@/lib/free-port";

// Runs a Prometheus server as a child process on 127.0.0.1: a free port, the given config, storage under
// dataDir, ready when /-/ready answers 200. Used by the demo cluster and by tests; never by a real
// cluster, whose Prometheus is its own.

export const PROMETHEUS_BINARY = "/usr/bin/prometheus";

export interface StartPrometheusOptions {
  dataDir: string;
  /** prometheus.yml content. Secrets belong in files it names (credentials_file), not in here. */
  config: string;
  binary?: string;
  readyTimeoutMs?: number;
  /** Further command-line flags (the diagnosis evaluation's --query.lookback-delta). */
  flags?: string[];
}

export interface RunningPrometheus {
  url: string;
  pid: number;
  /** Milliseconds from spawn to /-/ready answering 200. */
  startMs: number;
  stop: () => Promise<void>;
}

export class PrometheusStartError extends Error {
  constructor(
    message: string,
    readonly missingBinary = false,
  ) {
    super(message);
    this.name = "PrometheusStartError";
  }
}

const LOG_LINES = 20;
/** The whole environment Prometheus gets. */
export const CHILD_ENV: Readonly<Record<string, string>> = Object.freeze({ LANG: "C.UTF-8" });

/** Starts Prometheus; throws PrometheusStartError (missingBinary when the binary is not there). */
export async function startPrometheus(opts: StartPrometheusOptions): Promise<RunningPrometheus> {
  const binary = opts.binary ?? PROMETHEUS_BINARY;
  try {
    await access(binary, constants.X_OK);
  } catch {
    throw new PrometheusStartError(`${binary} is not installed (Debian: apt-get install --no-install-recommends prometheus)`, true);
  }
  await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  const configFile = path.join(opts.dataDir, "prometheus.yml");
  await writeFile(configFile, opts.config, { mode: 0o600 });
  try {
    return await onFreePort((port) => launch(binary, configFile, opts.dataDir, port, opts.readyTimeoutMs ?? 20_000, opts.flags ?? []));
  } catch (error) {
    throw error instanceof PrometheusStartError ? error : new PrometheusStartError(String((error as Error)?.message ?? error));
  }
}

async function launch(binary: string, configFile: string, dataDir: string, port: number, readyTimeoutMs: number, flags: string[]): Promise<RunningPrometheus> {
  const started = performance.now();
  const args = [
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${path.join(dataDir, "tsdb")}`,
    "--storage.tsdb.retention.time=1d",
    `--web.listen-address=127.0.0.1:${port}`,
    ...flags,
  ];
  // Nothing of the server's environment (DATABASE_URL holds the database password): the binary's path is
  // absolute, its paths are flags, and it logs in UTC without TZ.
  const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...CHILD_ENV } as NodeJS.ProcessEnv });
  const log: string[] = [];
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    log.push(...chunk.split("\n").filter(Boolean));
    if (log.length > LOG_LINES) log.splice(0, log.length - LOG_LINES);
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve(`exited (${signal ?? `code ${code}`})`));
    child.once("error", (error) => resolve(`could not start: ${error.message}`));
  });
  let gone: string | undefined;
  void exited.then((why) => (gone = why));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child, exited, killOnExit);

  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (gone) {
      process.removeListener("exit", killOnExit);
      throw new PrometheusStartError(`prometheus ${gone}: ${lastError(log)}`);
    }
    if ((await ready(url)) && (await stillRunningAfterReady(() => Boolean(gone))))
      return { url, pid: child.pid!, startMs: Math.round(performance.now() - started), stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new PrometheusStartError(`prometheus not ready within ${readyTimeoutMs} ms: ${lastError(log)}`);
}

async function ready(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<string>, killOnExit: () => void): Promise<void> {
  process.removeListener("exit", killOnExit);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** The most telling log line: the last error-level one, else the last line. */
function lastError(log: string[]): string {
  const line = [...log].reverse().find((l) => /level=(error|fatal)|err=/.test(l)) ?? log[log.length - 1] ?? "no output";
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}
