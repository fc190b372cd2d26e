import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { getCatalog } from "@/lib/catalog/queries";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { renderKmsProviders, renderPluginMetrics } from "@/lib/demo/cluster/render-endpoints";
import { applyWorld, CorpusFile, type Case } from "./world";

// The diagnosis corpus is data: these checks keep it loadable, labelled with real catalog failure modes, and split
// so the held-aside part only ever measures new presentations of modes the tuned part already has.

const ROOT = path.join(import.meta.dirname, "corpus");
// fresh/: a second held-aside part, written after the first tuning by people who had not read the diagnosis.
// evidence/: cases carried by alerts, logs and journals, split into its own tuned and held-aside parts.
// shapes/: a held-aside part of presentations the diagnosis is known to struggle with, all of modes the tuned part has.
const FOLDERS = ["tuned", "held-aside", "fresh", "evidence-tuned", "evidence-held-aside", "shapes"] as const;

function load(folder: (typeof FOLDERS)[number]): { file: string; cases: Case[] }[] {
  const [dir, pick] = folder.startsWith("evidence-")
    ? [path.join(ROOT, "evidence"), (f: string) => f.startsWith(folder === "evidence-tuned" ? "tuned" : "held-aside")]
    : [path.join(ROOT, folder), () => true];
  if (folder === "fresh" && !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".yaml") && pick(f))
    .sort()
    .map((file) => ({ file: `${path.basename(dir)}/${file}`, cases: CorpusFile.parse(parse(readFileSync(path.join(dir, file), "utf8"))).cases }));
}

const files = FOLDERS.flatMap((folder) => load(folder).map((f) => ({ folder, ...f })));
const all = files.flatMap((f) => f.cases.map((c) => ({ folder: f.folder, file: f.file, c })));

describe("diagnosis corpus", () => {
  it("has both folders, each with cases", () => {
    for (const folder of ["tuned", "held-aside"]) expect(files.filter((f) => f.folder === folder).length, folder).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThanOrEqual(100);
  });

  it("gives every case an id no other case in either folder has", () => {
    const seen = new Map<string, string>();
    const repeats: string[] = [];
    for (const { file, c } of all) {
      if (seen.has(c.id)) repeats.push(`${c.id} in ${seen.get(c.id)} and ${file}`);
      seen.set(c.id, file);
    }
    expect(repeats).toEqual([]);
  });

  it("labels every case with a failure mode of the catalog", () => {
    const modes = new Set(
      getCatalog()
        .entries.filter((e) => e.kind === "failure-mode")
        .map((e) => e.id),
    );
    const wrong = all.filter(({ c }) => !modes.has(c.label)).map(({ file, c }) => `${file}: ${c.id} -> ${c.label}`);
    expect(wrong).toEqual([]);
  });

  it("puts every held-aside label in the tuned part too", () => {
    const tuned = new Set(all.filter((x) => x.folder === "tuned").map(({ c }) => c.label));
    const unseen = all
      .filter((x) => !x.folder.startsWith("evidence-") && x.folder !== "tuned" && !tuned.has(x.c.label))
      .map(({ c }) => `${c.id} -> ${c.label}`);
    expect(unseen).toEqual([]);
  });

  it("splits the evidence cases as the others: each held-aside one has its partner in the evidence's tuned part", () => {
    const tuned = new Set(all.filter((x) => x.folder === "evidence-tuned").map(({ c }) => c.label));
    const held = all.filter((x) => x.folder === "evidence-held-aside").map(({ c }) => c.label);
    expect(held.length).toBeGreaterThanOrEqual(40);
    expect(held.filter((label) => !tuned.has(label))).toEqual([]);
    expect(held.filter((label, i) => held.indexOf(label) !== i)).toEqual([]);
    // What makes them evidence cases: each carries alerts, logs or a journal.
    const bare = all.filter(
      (x) => x.folder.startsWith("evidence-") && !x.c.evidence?.alerts?.length && !x.c.evidence?.logs?.length && !x.c.evidence?.journal?.length,
    );
    expect(bare.map(({ c }) => c.id)).toEqual([]);
  });

  it("holds at most one fresh case of each failure mode", () => {
    const fresh = all.filter((x) => x.folder === "fresh").map(({ c }) => c.label);
    expect(fresh.filter((label, i) => fresh.indexOf(label) !== i)).toEqual([]);
  });

  it("holds aside exactly one case of every failure mode", () => {
    const held = all.filter((x) => x.folder === "held-aside").map(({ c }) => c.label);
    const labels = new Set(all.filter((x) => !x.folder.startsWith("evidence-")).map(({ c }) => c.label));
    expect(held.length).toBe(new Set(held).size);
    expect(new Set(held)).toEqual(labels);
  });

  it("applies every case's world to a fresh three-node demo cluster", () => {
    const failures: string[] = [];
    for (const { file, c } of all) {
      const cluster = new DemoCluster({ nodes: 3, now: () => new Date("2026-11-23T10:00:00Z") });
      try {
        applyWorld(cluster, c.world);
        // The reporters must have been able to write: a refused write would leave the case without its evidence.
        if (cluster.lastReporterError) failures.push(`${file}: ${c.id}: reporter write refused: ${cluster.lastReporterError}`);
      } catch (error) {
        failures.push(`${file}: ${c.id}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 180_000); // about 510 worlds, each on a fresh cluster: seconds of CPU alone, several times that beside a CPU hog

  it("gives the demo plugin's AAD refusal counter the reason the world names, as the plugin labels it", async () => {
    const at = (minutes: number) => new Date(Date.parse("2026-11-23T10:00:00Z") + minutes * 60_000);
    const cluster = new DemoCluster({ nodes: 3, now: () => at(0) });
    applyWorld(cluster, { decrypt: { aadErrors: 12, aadReason: "annotation_invalid" } });
    const node = cluster.model.nodes[0];
    await renderPluginMetrics(cluster.model, node, node.plugins[0].keyID, at(0));
    const text = await renderPluginMetrics(cluster.model, node, node.plugins[0].keyID, at(15));
    expect(text).toMatch(/^openbao_kms_aad_validation_errors_total\{reason="annotation_invalid"\} [1-9]/m);
    expect(text).not.toContain('reason="aad_mismatch"');
  });

  it("shows a restarting plugin's own words on the probes that catch it down, and a refused dial without them", () => {
    const cluster = new DemoCluster({ nodes: 3, now: () => new Date("2026-11-23T10:00:00Z") });
    const stop = "systemd[1]: bao-kms-provider.service: State 'stop-sigterm' timed out. Killing.";
    applyWorld(cluster, { plugins: [{ node: "master-0", health: "healthy", flapping: true, detail: stop }] });
    const [down, up] = [0, 1].map((tick) => renderKmsProviders(cluster.model, cluster.model.nodes[0], tick));
    expect(down).toMatchObject({ status: 500 });
    expect(down.body).toContain(stop);
    expect(up).toEqual({ status: 200, body: "ok" });
    applyWorld(cluster, { plugins: [{ node: "master-0", health: "healthy", flapping: true }] });
    expect(renderKmsProviders(cluster.model, cluster.model.nodes[0], 0).body).toContain("connect: connection refused");
  });

  it("cites a source for every case and keeps every failure visible somewhere", () => {
    const silent: string[] = [];
    for (const { file, c } of all) {
      const w = c.world;
      const visible =
        (w.plugins ?? []).some((p) => p.health !== "healthy" || p.flapping || p.kekID) ||
        (w.nodeState ?? []).length > 0 ||
        (w.openbao !== undefined && w.openbao !== "active") ||
        w.transit !== undefined ||
        w.stack !== undefined ||
        w.auth !== undefined ||
        w.decrypt !== undefined ||
        w.keyIdFlips !== undefined ||
        w.identityFallback !== undefined ||
        !!(c.evidence?.alerts?.length || c.evidence?.logs?.length || c.evidence?.journal?.length);
      if (!visible) silent.push(`${file}: ${c.id}`);
      if (!/[a-z0-9-]+\/[a-z0-9.-]+|seed|catalog/i.test(c.from)) silent.push(`${file}: ${c.id}: from names no source`);
    }
    expect(silent).toEqual([]);
  });
});
