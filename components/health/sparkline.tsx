// A small inline SVG trend line for one metric series: no dependencies and no hooks, so a server or a
// client component can render it. Gaps (null, NaN, ±Inf) break the line rather than pretending to be 0.

export interface SparklinePoint {
  /** Milliseconds since the epoch. */
  t: number;
  v: number | null;
}

export type SparklineUnit = "seconds" | "per-second" | "count" | "state";

export interface SparklineProps {
  points: SparklinePoint[];
  /** What the line shows, for screen readers: "Decrypt p99 on master-1". */
  label: string;
  unit?: SparklineUnit;
  /** Overrides the unit's formatting (only from server components: functions do not cross to the client). */
  format?: (v: number) => string;
  /** Drawn as a dashed line; the vertical scale always includes it. */
  threshold?: number;
  tone?: "ok" | "warning" | "critical" | "unknown";
  width?: number;
  height?: number;
}

const PAD = 2;

export function formatMetric(v: number, unit?: SparklineUnit): string {
  if (!Number.isFinite(v)) return String(v);
  switch (unit) {
    case "seconds":
      if (Math.abs(v) >= 86_400 * 2) return `${Math.round(v / 86_400)} days`;
      if (Math.abs(v) >= 7_200) return `${Math.round(v / 3600)} h`;
      if (Math.abs(v) >= 120) return `${Math.round(v / 60)} min`;
      if (Math.abs(v) >= 1) return `${Number(v.toFixed(1))} s`;
      return `${Number((v * 1000).toPrecision(3))} ms`;
    case "per-second":
      return `${Number(v.toPrecision(2))}/s`;
    case "count":
    case "state":
      return String(Math.round(v * 100) / 100);
    default:
      return String(Number(v.toPrecision(4)));
  }
}

/** The line's segments (split at gaps) in SVG coordinates, plus the scale used. */
export function layoutSparkline(points: SparklinePoint[], width: number, height: number, threshold?: number) {
  const valid = points.filter((p) => Number.isFinite(p.t)).sort((a, b) => a.t - b.t);
  const finite = valid.filter((p): p is { t: number; v: number } => typeof p.v === "number" && Number.isFinite(p.v));
  if (finite.length === 0) return undefined;
  const min = finite.reduce((m, p) => Math.min(m, p.v), Infinity);
  const max = finite.reduce((m, p) => Math.max(m, p.v), -Infinity);
  const hasThreshold = threshold !== undefined && Number.isFinite(threshold);
  const lo = hasThreshold ? Math.min(min, threshold) : min;
  const hi = hasThreshold ? Math.max(max, threshold) : max;
  const t0 = valid[0].t;
  const t1 = valid[valid.length - 1].t;
  const x = (t: number) => (t1 === t0 ? width / 2 : PAD + ((t - t0) / (t1 - t0)) * (width - 2 * PAD));
  // Halved before subtracting, so the span of two huge values of opposite sign cannot overflow to Infinity.
  const y = (v: number) => (hi === lo ? height / 2 : height - PAD - ((v / 2 - lo / 2) / (hi / 2 - lo / 2)) * (height - 2 * PAD));
  const segments: { x: number; y: number }[][] = [];
  let current: { x: number; y: number }[] | undefined;
  for (const p of valid) {
    if (typeof p.v !== "number" || !Number.isFinite(p.v)) {
      current = undefined;
      continue;
    }
    if (!current) segments.push((current = []));
    current.push({ x: round(x(p.t)), y: round(y(p.v)) });
  }
  return {
    segments,
    min,
    max,
    last: finite[finite.length - 1].v,
    lastIsNow: valid[valid.length - 1] === finite[finite.length - 1],
    thresholdY: hasThreshold ? round(y(threshold)) : undefined,
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

export function Sparkline({ points, label, unit, format, threshold, tone = "ok", width = 120, height = 28 }: SparklineProps) {
  const fmt = format ?? ((v: number) => formatMetric(v, unit));
  const layout = layoutSparkline(Array.isArray(points) ? points : [], width, height, threshold);
  const limit = threshold !== undefined && Number.isFinite(threshold) ? `, threshold ${fmt(threshold)}` : "";
  if (!layout) {
    return (
      <svg className="sparkline sparkline-empty" role="img" aria-label={`${label}: no data`} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
        <title>{`${label}: no data`}</title>
        <line className="sparkline-baseline" x1={PAD} x2={width - PAD} y1={height / 2} y2={height / 2} />
      </svg>
    );
  }
  const now = layout.lastIsNow ? `last ${fmt(layout.last)}` : `no value now, last ${fmt(layout.last)}`;
  const text = `${label}: ${now}, min ${fmt(layout.min)}, max ${fmt(layout.max)}${limit}`;
  const end = layout.segments[layout.segments.length - 1].at(-1)!;
  return (
    <svg className={`sparkline sparkline-${tone}`} role="img" aria-label={text} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <title>{text}</title>
      {layout.thresholdY !== undefined && <line className="sparkline-threshold" x1={0} x2={width} y1={layout.thresholdY} y2={layout.thresholdY} />}
      {layout.segments.map((segment, i) =>
        segment.length === 1 ? (
          <circle key={i} className="sparkline-dot" cx={segment[0].x} cy={segment[0].y} r={1.5} />
        ) : (
          <polyline key={i} className="sparkline-line" points={segment.map((p) => `${p.x},${p.y}`).join(" ")} />
        ),
      )}
      {layout.lastIsNow && <circle className="sparkline-last" cx={end.x} cy={end.y} r={2} />}
    </svg>
  );
}
