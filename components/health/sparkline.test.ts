import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Sparkline, type SparklineProps } from "./sparkline";

const html = (props: SparklineProps) => renderToStaticMarkup(createElement(Sparkline, props));
const ariaLabel = (markup: string) => /aria-label="([^"]*)"/.exec(markup)?.[1];
const points = (values: (number | null)[]) => values.map((v, i) => ({ t: 1_000_000 + i * 15_000, v }));

describe("Sparkline", () => {
  it("is an image whose label gives the last value, the minimum and the maximum in the metric's unit", () => {
    const markup = html({ label: "Decrypt p99 on master-1", unit: "seconds", points: points([0.0006, 0.0008, 0.18, 0.0007]), threshold: 0.1 });
    expect(markup).toMatch(/^<svg class="sparkline sparkline-ok" role="img"/);
    expect(ariaLabel(markup)).toBe("Decrypt p99 on master-1: last 0.7 ms, min 0.6 ms, max 180 ms, threshold 100 ms");
    expect(markup).toContain(`<title>Decrypt p99 on master-1: last 0.7 ms`);
    expect(markup).toContain('class="sparkline-threshold"');
    expect(markup.match(/<polyline/g)).toHaveLength(1);
  });

  it("breaks the line at gaps and NaN instead of drawing them as zero", () => {
    const markup = html({ label: "errors", unit: "per-second", points: points([0.1, 0.2, null, NaN, 0.3, 0.4, Infinity, 0.5]) });
    expect(markup.match(/<polyline/g)).toHaveLength(2);
    expect(markup.match(/class="sparkline-dot"/g)).toHaveLength(1);
    expect(ariaLabel(markup)).toBe("errors: last 0.5/s, min 0.1/s, max 0.5/s");
  });

  it("says when the newest point is a gap", () => {
    expect(ariaLabel(html({ label: "token TTL", unit: "seconds", points: points([3600, 3500, null]) }))).toBe(
      "token TTL: no value now, last 58 min, min 58 min, max 60 min",
    );
  });

  it("draws one point as a dot in the middle, and no data as a flat line saying so", () => {
    const one = html({ label: "breaker", unit: "state", points: points([1]) });
    expect(one).toContain('<circle class="sparkline-dot" cx="60" cy="14"');
    expect(ariaLabel(one)).toBe("breaker: last 1, min 1, max 1");
    for (const empty of [[], points([null, NaN])]) {
      const markup = html({ label: "breaker", points: empty });
      expect(ariaLabel(markup)).toBe("breaker: no data");
      expect(markup).toContain("sparkline-empty");
    }
  });

  it("keeps every coordinate inside its box, whatever the values", () => {
    const markup = html({ label: "x", points: points([-1.7e308, 1e300, 5, 5]), threshold: 1.7e308, width: 120, height: 28 });
    const numbers = [...markup.matchAll(/(?:points="([^"]*)"|c[xy]="([^"]*)"|y[12]="([^"]*)")/g)].flatMap((m) =>
      (m[1] ?? m[2] ?? m[3]).split(/[ ,]/).map(Number),
    );
    expect(numbers.length).toBeGreaterThan(4);
    expect(numbers.every((n) => Number.isFinite(n) && n >= 0 && n <= 120)).toBe(true);
  });

  it("uses a given format and tone", () => {
    const markup = html({ label: "calls", points: points([1, 2]), format: (v) => `${v} calls`, tone: "critical" });
    expect(markup).toContain('class="sparkline sparkline-critical"');
    expect(ariaLabel(markup)).toBe("calls: last 2 calls, min 1 calls, max 2 calls");
  });
});
