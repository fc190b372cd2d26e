import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { PROMETHEUS_BINARY, startPrometheus, type RunningPrometheus } from "@/lib/sources/prometheus/process";

// For tests only: they need Debian's Prometheus and fail, never skip, without it.

export function requirePrometheus(): void {
  expect(
    existsSync(PROMETHEUS_BINARY),
    `these tests need Prometheus at ${PROMETHEUS_BINARY}: apt-get install --no-install-recommends prometheus (npm test installs it as root)`,
  ).toBe(true);
}

/** A real Prometheus that scrapes nothing, in a throw-away folder; stop() also removes the folder. */
export async function startEmptyPrometheus(): Promise<RunningPrometheus> {
  requirePrometheus();
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-prometheus-"));
  const prom = await startPrometheus({ dataDir: dir, config: "global:\n  scrape_interval: 15s\nscrape_configs: []\n" });
  const stop = async () => {
    await prom.stop();
    await rm(dir, { recursive: true, force: true });
  };
  return { ...prom, stop };
}
