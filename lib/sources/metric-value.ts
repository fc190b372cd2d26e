// A sample value that survives JSON, in a module of its own so the browser can read values without the
// query client: NaN and the infinities are spelled as Prometheus spells them.

export type MetricValue = number | "NaN" | "+Inf" | "-Inf";

export function toMetricValue(v: number): MetricValue {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return v;
}

/** The number a MetricValue stands for (NaN and the infinities included). */
export function fromMetricValue(v: MetricValue | null | undefined): number {
  if (v === null || v === undefined || v === "NaN") return NaN;
  if (v === "+Inf") return Infinity;
  if (v === "-Inf") return -Infinity;
  return typeof v === "number" ? v : NaN;
}
