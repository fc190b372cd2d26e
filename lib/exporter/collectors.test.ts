import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setScenario } from "@/lib/demo/cluster/scenarios";
import { setDatabaseUrl } from "@/lib/env";
import { publishHealth } from "@/lib/live/registry";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { startDemoMonitor, settledPoll, type DemoMonitor } from "@/test/demo-monitor";
import { migratedDatabase } from "@/test/incident-db";
import { findSamples, parsePrometheusText } from "@/test/parse-prometheus";
import { observeMonitorRound, renderAllMetrics } from "./collectors";
import { SUBJECTS_PER_SIGNAL } from "./signal-series";

// /metrics as Prometheus reads it, from the real demo cluster through the real monitor round: signal states,
// since when, sources, watch counters, open incidents from a real PostgreSQL; checked by Debian's promtool too.

const PROMTOOL = "/usr/bin/promtool";
let sim: DemoMonitor;
let db: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  db = await migratedDatabase();
  setDatabaseUrl(db.url);
  sim = await startDemoMonitor();
});
afterAll(async () => {
  await sim?.stop();
  await db?.close();
});

async function scrape() {
  const { text } = await renderAllMetrics();
  const parsed = parsePrometheusText(text);
  expect(parsed.errors).toEqual([]);
  return { text, parsed };
}

/**
 * Debian's promtool parses the exposition as Prometheus does and lints the names: Faultline's families must pass
 * both (prom-client's own process metrics have lint remarks, which are not ours to fix).
 */
async function promtoolAccepts(text: string): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "faultline-metrics-"));
  const file = path.join(dir, "metrics.txt");
  await writeFile(file, text);
  const run = promisify(execFile);
  const output = await run("sh", ["-c", `${PROMTOOL} check metrics < ${file} 2>&1`]).then(
    (r) => r.stdout,
    (e: { stdout?: string }) => e.stdout ?? "",
  );
  await rm(dir, { recursive: true, force: true });
  const ours = output.split("\n").filter((line) => /parsing error|faultline_/.test(line));
  expect(ours, output).toEqual([]);
}

const state = (parsed: ReturnType<typeof parsePrometheusText>, signal: string, subject: string) =>
  Object.fromEntries(findSamples(parsed, "faultline_signal_state", { cluster: "demo", signal, subject }).map((s) => [s.labels.state, s.value]));

describe("Faultline's own metrics", () => {
  it("exports each signal's state, since when, the sources and the watch counters of the demo cluster, and follows a failure", async () => {
    publishHealth(await settledPoll(sim.entry));
    let { parsed, text } = await scrape();
    expect(state(parsed, "openbao.sealed", "openbao")).toEqual({ ok: 1, warning: 0, critical: 0, unknown: 0 });
    const okSince = findSamples(parsed, "faultline_signal_state_since_timestamp_seconds", { signal: "openbao.sealed", subject: "openbao" })[0]?.value;
    expect(okSince).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(findSamples(parsed, "faultline_source_up", { cluster: "demo", source: "kubeapiserver" })[0]?.value).toBe(1);
    expect(findSamples(parsed, "faultline_source_last_success_timestamp_seconds", { cluster: "demo", source: "kubeapiserver" })[0]?.value).toBeGreaterThan(0);
    expect(findSamples(parsed, "faultline_watch_lists_total", { cluster: "demo", source: "kubeapiserver" })[0]?.value).toBeGreaterThanOrEqual(1);
    for (const name of ["faultline_watch_reconnects_total", "faultline_watch_stalls_total", "faultline_watch_expired_total"])
      expect(findSamples(parsed, name, { cluster: "demo", source: "kubeapiserver" })).toHaveLength(1);
    expect(findSamples(parsed, "faultline_incidents_open", { cluster: "demo", severity: "critical" })[0]?.value).toBe(0);
    await promtoolAccepts(text);

    setScenario(sim.server.cluster, "openbao-sealed", true);
    try {
      await new Promise((r) => setTimeout(r, 20)); // the since of the new state must differ from the old one's
      publishHealth(await settledPoll(sim.entry));
      ({ parsed, text } = await scrape());
      expect(state(parsed, "openbao.sealed", "openbao")).toEqual({ ok: 0, warning: 0, critical: 1, unknown: 0 });
      const sealedSince = findSamples(parsed, "faultline_signal_state_since_timestamp_seconds", { signal: "openbao.sealed", subject: "openbao" })[0]?.value;
      expect(sealedSince).toBeGreaterThan(okSince!);
      await db.prisma.incident.create({ data: openIncident("demo", "critical") });
      await new Promise((r) => setTimeout(r, 5_100)); // past the count's cache
      ({ parsed } = await scrape());
      expect(findSamples(parsed, "faultline_incidents_open", { cluster: "demo", severity: "critical" })[0]?.value).toBe(1);
    } finally {
      setScenario(sim.server.cluster, "openbao-sealed", false);
    }
    publishHealth(await settledPoll(sim.entry));
    ({ parsed } = await scrape());
    expect(state(parsed, "openbao.sealed", "openbao")).toEqual({ ok: 1, warning: 0, critical: 0, unknown: 0 });
    // One round of 3 nodes: the family and this cluster's series are there.
    observeMonitorRound("demo", 0.05);
    ({ parsed } = await scrape());
    expect(findSamples(parsed, "faultline_monitor_round_duration_seconds_count", { cluster: "demo" })[0]?.value).toBe(1);
  });

  it("gives a state that began before a restart the start the store kept, and only when the state is the same", async () => {
    const base = (await settledPoll(sim.entry)) as ClusterHealth;
    const hourAgo = new Date(Date.now() - 3_600_000);
    const now = new Date();
    const row = (signal: string, subject: string, state: string) => ({
      cluster: "restarted",
      signal,
      subject,
      state,
      since: hourAgo,
      detail: "",
      updatedAt: now,
    });
    await db.prisma.signalState.createMany({ data: [row("openbao.sealed", "openbao", "ok"), row("openbao.unreachable", "openbao", "critical")] });
    publishHealth({ ...base, name: "restarted" });
    await scrape(); // the first sight of the cluster asks the store, once
    await new Promise((r) => setTimeout(r, 500));
    const { parsed } = await scrape();
    const sinceOf = (signal: string) =>
      findSamples(parsed, "faultline_signal_state_since_timestamp_seconds", { cluster: "restarted", signal, subject: "openbao" })[0]?.value;
    expect(sinceOf("openbao.sealed")).toBe(hourAgo.getTime() / 1000);
    // Stored as critical, ok now: the ok state began when this process saw it.
    expect(sinceOf("openbao.unreachable")).toBeGreaterThan(hourAgo.getTime() / 1000 + 3_000);
  });

  it("keeps at most the bound of subjects per signal, the failing ones first, counts the rest, and drops what is gone", async () => {
    const base = (await settledPoll(sim.entry)) as ClusterHealth;
    const many = Array.from({ length: 250 }, (_, i) => ({
      id: "kms.plugin.unhealthy" as const,
      subject: `node-${String(i).padStart(3, "0")}/1`,
      state: i === 240 ? ("critical" as const) : ("ok" as const),
      detail: "",
      evidence: null,
    }));
    const hostile = { id: "webhook.missing" as const, subject: `evil"\\\n\u0000${"x".repeat(5_000)}`, state: "warning" as const, detail: "", evidence: null };
    publishHealth({ ...base, name: "bounded", signals: [...many, hostile] });
    const first = await scrape();
    let parsed = first.parsed;
    const kept = findSamples(parsed, "faultline_signal_state", { cluster: "bounded", signal: "kms.plugin.unhealthy", state: "critical" });
    expect(kept).toHaveLength(SUBJECTS_PER_SIGNAL);
    expect(kept.find((s) => s.labels.subject === "node-240/1")?.value).toBe(1);
    expect(findSamples(parsed, "faultline_signal_subjects_omitted", { cluster: "bounded", signal: "kms.plugin.unhealthy" })[0]?.value).toBe(150);
    const evil = findSamples(parsed, "faultline_signal_state", { cluster: "bounded", signal: "webhook.missing", state: "warning" })[0];
    expect(evil.labels.subject.startsWith('evil"\\\n\uFFFDxxx')).toBe(true);
    expect(evil.labels.subject.length).toBeLessThan(1_100);
    await promtoolAccepts(first.text);

    // The signal is gone from the cluster's health: no stale series remain.
    publishHealth({ ...base, name: "bounded", signals: many.slice(0, 3) });
    ({ parsed } = await scrape());
    expect(findSamples(parsed, "faultline_signal_state", { cluster: "bounded", signal: "webhook.missing" })).toEqual([]);
    expect(findSamples(parsed, "faultline_signal_state", { cluster: "bounded", signal: "kms.plugin.unhealthy", state: "ok" })).toHaveLength(3);
  });
});

function openIncident(cluster: string, severity: string) {
  const now = new Date();
  return {
    cluster,
    memberKey: `${cluster}\u001fopenbao.sealed\u001fopenbao`,
    signal: "openbao.sealed",
    subject: "openbao",
    title: "OpenBao sealed",
    severity,
    status: "open",
    source: "signal",
    openedAt: now,
    lastSeenAt: now,
    updatedAt: now,
  };
}
