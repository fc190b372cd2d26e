import { describe, expect, it } from "vitest";
import { composeClusterHealth } from "@/lib/signals/cluster-health";
import { DemoCluster } from "@/lib/demo/cluster/cluster";
import { demoSources } from "@/test/demo-sources";
import type { Sources } from "./sources";
import { intake, newIntakeMemo } from "./intake";
import { readSources } from "./readings";

// The monitor's intake: every source value passes the text boundary once; what changed is noted and logged once.

const node = (name: string, note = "") => ({ metadata: { name, annotations: { note } }, status: { conditions: [] } });

describe("the monitor's intake", () => {
  it("cleans metric labels, probe bodies and error texts, and notes each source that held refused characters", () => {
    const memo = newIntakeMemo();
    const logged: string[] = [];
    const sources: Partial<Sources> = {
      readyz: { name: "readyz", up: true, value: { status: 200, body: "[+]ping ok\u0000" } },
      metrics: {
        name: "metrics",
        up: true,
        value: { at: "2026-11-23T00:00:00Z", metrics: { tokenTtl: { series: [{ labels: { node: "master-0\ud800" }, value: 5 }] } } } as never,
      },
      openbao: { name: "openbao", up: false, lastError: "connect ECONNREFUSED\u0000 127.0.0.1:8200", downSince: "2026-11-23T00:00:00Z" },
    };
    const out = intake(sources, memo, (line) => logged.push(line));
    expect(out.readyz?.value).toEqual({ status: 200, body: "[+]ping ok\uFFFD" });
    expect(JSON.stringify(out.metrics?.value)).toContain('"node":"master-0\uFFFD"');
    expect(out.openbao?.lastError).toBe("connect ECONNREFUSED\uFFFD 127.0.0.1:8200");
    expect([...memo.notes]).toEqual([
      ["readyz", "1 character replaced (U+0000)"],
      ["metrics", "1 character replaced (U+D800)"],
    ]);
    expect(logged).toEqual(["readyz: cleaned: 1 character replaced (U+0000)", "metrics: cleaned: 1 character replaced (U+D800)"]);
    // The same values again (or the clean copies the monitor kept): no new log line, same clean objects.
    const again = intake({ ...sources, metrics: out.metrics }, memo, (line) => logged.push(line));
    expect(logged).toHaveLength(2);
    expect(again.readyz?.value).toBe(out.readyz?.value);
    expect(again.metrics?.value).toBe(out.metrics?.value);
    // Once the source is clean again, so is its note.
    intake({ readyz: { name: "readyz", up: true, value: { status: 200, body: "[+]ping ok" } } }, memo, (line) => logged.push(line));
    expect(memo.notes.has("readyz")).toBe(false);
  });

  it("cleans a collection per object, keeps every object of a large one, and does not walk unchanged objects again", () => {
    const memo = newIntakeMemo();
    const nodes = Array.from({ length: 5_000 }, (_, i) => node(`node-${i}`));
    nodes[42] = node("node-42", "bad\u0000");
    const first = intake({ nodes: { name: "nodes", up: true, value: nodes } }, memo, () => undefined);
    expect(first.nodes?.value).toHaveLength(5_000);
    expect((first.nodes?.value?.[42] as ReturnType<typeof node>).metadata.annotations.note).toBe("bad\uFFFD");
    // A watch that changed one node hands a new array with the other objects as they were.
    const changed = [...nodes];
    changed[7] = node("node-7", "x");
    const second = intake({ nodes: { name: "nodes", up: true, value: changed } }, memo, () => undefined);
    expect(second.nodes?.value?.[8]).toBe(first.nodes?.value?.[8]);
    expect(second.nodes?.value?.[7]).not.toBe(first.nodes?.value?.[7]);
    expect(memo.notes.get("nodes")).toBe("1 character replaced (U+0000)");
  });

  it("changes nothing the health model sees in a clean cluster of 5,000 nodes", () => {
    const cluster = new DemoCluster({ nodes: 5_000, intervalMs: 30_000 });
    const sources = demoSources(cluster, { lastSuccess: "2026-11-23T00:00:00Z" });
    const memo = newIntakeMemo();
    const now = new Date();
    const compose = (s: Sources) => composeClusterHealth({ name: "big", simulated: true, intervalSeconds: 30, readings: readSources(s), now });
    expect(compose(intake(sources, memo, () => undefined))).toEqual(compose(sources));
    expect(memo.notes.size).toBe(0);
  });
});
