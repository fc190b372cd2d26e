// Prometheus text exposition format 0.0.4, as served by kube-apiserver and bao-kms-provider /metrics.
// Written by hand rather than pulled in: the format is small, and the health model needs per-line errors
// that keep a half-broken scrape useful instead of failing it whole.

export const METRIC_TYPES = ["counter", "gauge", "histogram", "summary", "untyped"] as const;
export type MetricType = (typeof METRIC_TYPES)[number];

export interface PromSample {
  /** The sample's own name, e.g. x_bucket for a histogram family x. */
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs?: number;
}

export interface PromFamily {
  name: string;
  type: MetricType;
  help?: string;
  samples: PromSample[];
}

export interface ParsedPrometheus {
  families: PromFamily[];
  errors: { line: number; message: string }[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const WHOLE_METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// Go's strconv.ParseFloat spellings, matched case-insensitively.
const SPECIAL_VALUES = new Map<string, number>([
  ["+inf", Infinity],
  ["inf", Infinity],
  ["+infinity", Infinity],
  ["infinity", Infinity],
  ["-inf", -Infinity],
  ["-infinity", -Infinity],
  ["nan", NaN],
]);
// Which sample-name suffixes belong to a family of each type.
const SUFFIXES: Partial<Record<MetricType, string[]>> = {
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["_sum", "_count"],
};

/** Never throws: a body that is not text (an upstream's JSON, nothing at all) is an error of the result. */
export function parsePrometheusText(text: unknown): ParsedPrometheus {
  const parsed: ParsedPrometheus = { families: [], errors: [] };
  if (typeof text !== "string") {
    parsed.errors.push({ line: 0, message: "metrics body is not a string" });
    return parsed;
  }
  const byName = new Map<string, PromFamily>();
  const family = (name: string): PromFamily => {
    let found = byName.get(name);
    if (!found) {
      found = { name, type: "untyped", samples: [] };
      byName.set(name, found);
      parsed.families.push(found);
    }
    return found;
  };
  const typed = new Set<string>();

  text.split("\n").forEach((rawLine, i) => {
    const line = rawLine.replace(/\r$/, "").trim();
    const fail = (message: string) => parsed.errors.push({ line: i + 1, message });
    if (line === "") return;
    if (line.startsWith("#")) {
      const meta = /^#\s*(HELP|TYPE)\s+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (!meta) return; // an ordinary comment
      const [, keyword, name, rest = ""] = meta;
      if (!WHOLE_METRIC_NAME.test(name)) return fail(`invalid metric name ${JSON.stringify(name)} in ${keyword} line`);
      const target = family(name);
      if (keyword === "HELP") {
        if (target.help !== undefined) return fail(`second HELP line for ${name}`);
        target.help = rest.replace(/\\(\\|n)/g, (_, c: string) => (c === "n" ? "\n" : "\\"));
        return;
      }
      const type = rest.trim();
      if (!(METRIC_TYPES as readonly string[]).includes(type)) return fail(`unknown metric type ${JSON.stringify(type)} for ${name}`);
      if (typed.has(name)) return fail(`second TYPE line for ${name}`);
      if (target.samples.length > 0) return fail(`TYPE line for ${name} comes after its samples`);
      typed.add(name);
      target.type = type as MetricType;
      return;
    }
    const sample = parseSampleLine(line);
    if (typeof sample === "string") return fail(sample);
    const owner = findFamily(byName, sample.name) ?? family(sample.name);
    if (owner.type === "histogram" && sample.name === `${owner.name}_bucket` && !Object.hasOwn(sample.labels, "le")) {
      return fail(`histogram bucket ${sample.name} has no "le" label`);
    }
    if (owner.type === "summary" && sample.name === owner.name && !Object.hasOwn(sample.labels, "quantile")) {
      return fail(`summary sample ${sample.name} has no "quantile" label`);
    }
    owner.samples.push(sample);
  });
  return parsed;
}

function findFamily(byName: Map<string, PromFamily>, sampleName: string): PromFamily | undefined {
  const exact = byName.get(sampleName);
  if (exact) return exact;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sampleName.endsWith(suffix)) continue;
    const base = byName.get(sampleName.slice(0, -suffix.length));
    if (base && SUFFIXES[base.type]?.includes(suffix)) return base;
  }
  return undefined;
}

/** Returns the sample, or an error message saying what is wrong with the line. */
function parseSampleLine(line: string): PromSample | string {
  const nameMatch = METRIC_NAME.exec(line);
  if (!nameMatch) return `expected a metric name, got ${JSON.stringify(line.slice(0, 20))}`;
  const name = nameMatch[0];
  let pos = name.length;
  const labelMap = new Map<string, string>();
  if (line[pos] === "{") {
    const read = readLabels(line, pos + 1, labelMap);
    if (typeof read === "string") return `${name}: ${read}`;
    pos = read;
  }
  const rest = line.slice(pos);
  if (rest !== "" && !/^[ \t]/.test(rest)) return `${name}: unexpected ${JSON.stringify(rest[0])} after the metric name`;
  const parts = rest
    .trim()
    .split(/[ \t]+/)
    .filter((p) => p !== "");
  if (parts.length === 0) return `${name}: no value`;
  if (parts.length > 2) return `${name}: unexpected text after the timestamp`;
  const value = parseValue(parts[0]);
  if (value === undefined) return `${name}: value ${JSON.stringify(parts[0])} is not a number`;
  // fromEntries defines own properties, so a label called __proto__ or constructor stays a plain label.
  const sample: PromSample = { name, labels: Object.fromEntries(labelMap), value };
  if (parts.length === 2) {
    if (!/^-?\d+$/.test(parts[1])) return `${name}: timestamp ${JSON.stringify(parts[1])} is not an integer of milliseconds`;
    sample.timestampMs = Number(parts[1]);
  }
  return sample;
}

/** Reads `name="value",...}` from `start`; returns the position after `}` or an error message. */
function readLabels(line: string, start: number, labels: Map<string, string>): number | string {
  let pos = start;
  for (;;) {
    while (line[pos] === " " || line[pos] === "\t") pos++;
    if (line[pos] === "}") return pos + 1;
    const labelMatch = LABEL_NAME.exec(line.slice(pos));
    if (!labelMatch) return pos >= line.length ? "label set is not closed with }" : `invalid label name at column ${pos + 1}`;
    const label = labelMatch[0];
    pos += label.length;
    while (line[pos] === " " || line[pos] === "\t") pos++;
    if (line[pos] !== "=") return `expected = after label ${label}`;
    pos++;
    while (line[pos] === " " || line[pos] === "\t") pos++;
    if (line[pos] !== '"') return `value of label ${label} does not start with a quote`;
    pos++;
    let value = "";
    for (;;) {
      if (pos >= line.length) return `value of label ${label} is not terminated (missing closing quote)`;
      const c = line[pos];
      if (c === '"') break;
      if (c === "\\") {
        const next = line[pos + 1];
        if (next === "\\") value += "\\";
        else if (next === '"') value += '"';
        else if (next === "n") value += "\n";
        else return `label ${label} has an invalid escape ${JSON.stringify(`\\${next ?? ""}`)}`;
        pos += 2;
        continue;
      }
      value += c;
      pos++;
    }
    pos++;
    if (labels.has(label)) return `label ${label} appears twice`;
    labels.set(label, value);
    while (line[pos] === " " || line[pos] === "\t") pos++;
    if (line[pos] === ",") pos++;
    else if (line[pos] !== "}") return pos >= line.length ? "label set is not closed with }" : `expected , or } after label ${label}`;
  }
}

function parseValue(text: string): number | undefined {
  const special = SPECIAL_VALUES.get(text.toLowerCase());
  if (special !== undefined) return special;
  return FLOAT.test(text) ? Number(text) : undefined;
}

/** Samples named exactly `metricName` (e.g. `x_bucket`) whose labels include every given label. */
export function findSamples(parsed: ParsedPrometheus, metricName: string, labels: Record<string, string> = {}): PromSample[] {
  const wanted = Object.entries(labels);
  return parsed.families.flatMap((f) =>
    f.samples.filter((s) => s.name === metricName && wanted.every(([k, v]) => Object.hasOwn(s.labels, k) && s.labels[k] === v)),
  );
}
