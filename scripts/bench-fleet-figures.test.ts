import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareFigures, cpuSecondsOf, parseWrkReport, percentile, SseReader, WRK_MARK } from "./bench-fleet-figures";

describe("bench:fleet's readings", () => {
  it("reads CPU time from /proc/<pid>/stat, a command name with spaces and parentheses included", () => {
    const fields = ["S", ...Array.from({ length: 10 }, (_, i) => String(i)), "1234", "566", "0", "0"];
    expect(cpuSecondsOf(`4711 (node (a) b) ${fields.join(" ")}`)).toBe(18);
    // This process's own: it has used some CPU, less than it has lived.
    const own = cpuSecondsOf(readFileSync(`/proc/${process.pid}/stat`, "utf8"));
    expect(own).toBeGreaterThan(0);
    expect(own).toBeLessThan(process.uptime() * 4);
    expect(() => cpuSecondsOf("garbage")).toThrow(/not a \/proc/);
  });

  it("splits a stream into events however its chunks are cut, skipping comments and retry lines", () => {
    const text = 'retry: 3000\n\nevent: fleet\ndata: {"full":true}\n\n: keep-alive\n\nevent: health\r\ndata: a\r\ndata: b\r\n\r\n';
    for (const size of [1, 3, 7, text.length]) {
      const reader = new SseReader();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...reader.push(text.slice(i, i + size)));
      expect(events).toEqual([
        { event: "fleet", data: '{"full":true}' },
        { event: "health", data: "a\nb" },
      ]);
    }
  });

  it("reads wrk's figures: microseconds to ms, timeouts among the slow and the errors", () => {
    const line = `${WRK_MARK}{"requests":4000,"durationUs":20000000,"p50Us":120000,"p99Us":950000,"maxUs":1800000,"over1s":7,"connect":0,"read":1,"write":0,"status":2,"timeouts":3}`;
    expect(parseWrkReport(`Running 20s test @ http://127.0.0.1/\n${line}\n`)).toEqual({
      requests: 4000,
      perSecond: 200,
      p50Ms: 120,
      p99Ms: 950,
      maxMs: 1800,
      over1s: 10,
      errors: 6,
    });
    expect(() => parseWrkReport("unable to connect to 127.0.0.1:1 Connection refused")).toThrow(/no figures/);
  });

  it("takes percentiles by nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile(values, 1)).toBe(100);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it("puts each figure beside an earlier run's with the ratio, leaving out samples and what cannot be divided", () => {
    const before = { memory: { finalRssMB: 800 }, load: { fleet: { p99Ms: 400, over1s: 0 } }, samples: [{ rssMB: 1 }] };
    const after = { memory: { finalRssMB: 400 }, load: { fleet: { p99Ms: 100, over1s: 0 } }, sse: { missed: 0 }, samples: [{ rssMB: 2 }] };
    expect(compareFigures(before, after)).toEqual([
      { figure: "memory.finalRssMB", before: 800, after: 400, ratio: 0.5 },
      { figure: "load.fleet.p99Ms", before: 400, after: 100, ratio: 0.25 },
      { figure: "load.fleet.over1s", before: 0, after: 0, ratio: null },
      { figure: "sse.missed", before: null, after: 0, ratio: null },
    ]);
  });
});
