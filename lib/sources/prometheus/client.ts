import { z } from "zod";

// A small client for Prometheus' HTTP query API (/api/v1/query and /api/v1/query_range). Every answer is
// validated; every failure becomes a PrometheusQueryError whose kind says what went wrong, so a caller
// can show "Prometheus unreachable" apart from "your PromQL is wrong" apart from "not Prometheus at all".

export type PrometheusErrorKind =
  /** The URL is not an http(s) URL. */
  | "invalid-url"
  /** No TCP connection (refused, DNS, reset before an answer). */
  | "unreachable"
  /** No complete answer within timeoutMs. */
  | "timeout"
  /** A non-2xx status without Prometheus' JSON error body (a proxy, a login page). */
  | "http"
  /** Prometheus answered {"status":"error"}: bad PromQL, execution error, timeout on its side. */
  | "prometheus"
  /** A 2xx answer that is not JSON. */
  | "non-json"
  /** JSON that is not a Prometheus query answer, or an answer larger than the limit. */
  | "bad-response";

export class PrometheusQueryError extends Error {
  readonly kind: PrometheusErrorKind;
  /** HTTP status, when an answer arrived. */
  readonly status?: number;
  /** Prometheus' errorType ("bad_data", "execution", "timeout", ...), for kind "prometheus". */
  readonly errorType?: string;

  constructor(kind: PrometheusErrorKind, message: string, extra: { status?: number; errorType?: string; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = "PrometheusQueryError";
    this.kind = kind;
    this.status = extra.status;
    this.errorType = extra.errorType;
  }
}

/** Prometheus sample values are strings: decimal numbers or "NaN", "+Inf", "-Inf". */
export type PromValue = number;

export interface PromSample {
  labels: Record<string, string>;
  /** Milliseconds since the epoch. */
  t: number;
  /** May be NaN or ±Infinity, as Prometheus reports them. */
  value: PromValue;
}

export interface PromSeries {
  labels: Record<string, string>;
  points: { t: number; value: PromValue }[];
}

export type InstantResult =
  | { resultType: "vector"; samples: PromSample[]; warnings: string[] }
  | { resultType: "scalar"; sample: { t: number; value: PromValue }; warnings: string[] }
  | { resultType: "string"; sample: { t: number; value: string }; warnings: string[] }
  | { resultType: "matrix"; series: PromSeries[]; warnings: string[] };

export interface RangeResult {
  series: PromSeries[];
  warnings: string[];
}

export const DEFAULT_TIMEOUT_MS = 10_000;
/** Larger answers are refused rather than parsed: a dashboard query has no business returning more. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
const SNIPPET = 200;

const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL: Record<string, number> = { NaN: NaN, "+Inf": Infinity, Inf: Infinity, "-Inf": -Infinity };

/** Parses a Prometheus sample value string; undefined when it is neither a number nor NaN/±Inf. */
export function parsePromValue(text: string): number | undefined {
  if (text in SPECIAL) return SPECIAL[text];
  return FLOAT.test(text) ? Number(text) : undefined;
}

const Value = z.string().transform((s, ctx) => {
  const v = parsePromValue(s);
  if (v === undefined) {
    ctx.addIssue({ code: "custom", message: `not a sample value: ${JSON.stringify(s.slice(0, 40))}` });
    return z.NEVER;
  }
  return v;
});
const Timestamp = z.number().finite();
const Pair = z.tuple([Timestamp, Value]);
const Labels = z.record(z.string(), z.string());
// Native-histogram samples ("histogram" instead of "value") are not used by the KMS metrics; they are dropped.
const VectorItem = z.object({ metric: Labels, value: Pair.optional(), histogram: z.unknown().optional() });
const MatrixItem = z.object({ metric: Labels, values: z.array(Pair).optional(), histograms: z.unknown().optional() });

const Warnings = z.array(z.string()).optional();
const Success = z.discriminatedUnion("resultType", [
  z.object({ resultType: z.literal("vector"), result: z.array(VectorItem) }),
  z.object({ resultType: z.literal("matrix"), result: z.array(MatrixItem) }),
  z.object({ resultType: z.literal("scalar"), result: Pair }),
  z.object({ resultType: z.literal("string"), result: z.tuple([Timestamp, z.string()]) }),
]);
const Status = z.object({ status: z.enum(["success", "error"]) });
const SuccessEnvelope = z.object({ status: z.literal("success"), data: Success, warnings: Warnings });
const ErrorEnvelope = z.object({
  status: z.literal("error"),
  errorType: z.string().optional().catch(undefined),
  error: z.string().optional().catch(undefined),
});
type SuccessData = z.infer<typeof Success>;

export interface QueryOptions {
  timeoutMs?: number;
}

/** An instant query. time defaults to Prometheus' own "now". */
export async function queryInstant(baseUrl: string, promql: string, opts: QueryOptions & { time?: Date } = {}): Promise<InstantResult> {
  const params = new URLSearchParams({ query: promql });
  if (opts.time) params.set("time", seconds(opts.time));
  const { data, warnings } = await post(baseUrl, "api/v1/query", params, opts.timeoutMs);
  switch (data.resultType) {
    case "vector":
      return {
        resultType: "vector",
        samples: data.result.flatMap((i) => (i.value ? [{ labels: i.metric, t: ms(i.value[0]), value: i.value[1] }] : [])),
        warnings,
      };
    case "matrix":
      return { resultType: "matrix", series: toSeries(data.result), warnings };
    case "scalar":
      return { resultType: "scalar", sample: { t: ms(data.result[0]), value: data.result[1] }, warnings };
    case "string":
      return { resultType: "string", sample: { t: ms(data.result[0]), value: data.result[1] }, warnings };
  }
}

/** A range query from start to end (inclusive) every stepSeconds. */
export async function queryRange(baseUrl: string, promql: string, opts: QueryOptions & { start: Date; end: Date; stepSeconds: number }): Promise<RangeResult> {
  if (!(opts.stepSeconds > 0) || !Number.isFinite(opts.stepSeconds)) throw new RangeError(`stepSeconds must be a positive number, got ${opts.stepSeconds}`);
  const params = new URLSearchParams({ query: promql, start: seconds(opts.start), end: seconds(opts.end), step: String(opts.stepSeconds) });
  const { data, warnings } = await post(baseUrl, "api/v1/query_range", params, opts.timeoutMs);
  if (data.resultType !== "matrix") throw new PrometheusQueryError("bad-response", `query_range answered a ${data.resultType}, not a matrix`);
  return { series: toSeries(data.result), warnings };
}

function toSeries(items: z.infer<typeof MatrixItem>[]): PromSeries[] {
  return items.filter((i) => i.values).map((i) => ({ labels: i.metric, points: i.values!.map(([t, value]) => ({ t: ms(t), value })) }));
}

const seconds = (d: Date) => (d.getTime() / 1000).toFixed(3);
const ms = (s: number) => Math.round(s * 1000);

/** Builds the endpoint URL; credentials in the base URL move to an Authorization header (fetch refuses them). */
function endpoint(baseUrl: string, path: string): { url: URL; display: string; headers: Record<string, string> } {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new PrometheusQueryError("invalid-url", "the Prometheus URL is not a valid URL");
  }
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new PrometheusQueryError("invalid-url", `the Prometheus URL must be http:// or https://, not ${base.protocol}`);
  const headers: Record<string, string> = { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" };
  if (base.username || base.password) {
    headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`).toString("base64")}`;
    base.username = "";
    base.password = "";
  }
  base.search = "";
  base.hash = "";
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  const url = new URL(path, base);
  return { url, display: `${url.origin}${url.pathname}`, headers };
}

async function post(
  baseUrl: string,
  path: string,
  params: URLSearchParams,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<{ data: SuccessData; warnings: string[] }> {
  const { url, display, headers } = endpoint(baseUrl, path);
  // Prometheus stops evaluating at its own timeout too, so a slow query does not keep running there.
  params.set("timeout", `${Math.max(1, Math.floor(timeoutMs / 1000))}s`);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body: params, headers, signal, redirect: "manual" });
  } catch (error) {
    throw transportError(error, display, timeoutMs);
  }
  let body: string;
  try {
    body = await readCapped(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (error instanceof PrometheusQueryError) throw error;
    throw transportError(error, display, timeoutMs);
  }
  return interpret(response.status, response.headers.get("content-type"), body, display);
}

function transportError(error: unknown, display: string, timeoutMs: number): PrometheusQueryError {
  const name = (error as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError")
    return new PrometheusQueryError("timeout", `no answer from ${display} within ${timeoutMs} ms`, { cause: error });
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  return new PrometheusQueryError("unreachable", `cannot reach ${display}: ${reason}`, { cause: error });
}

async function readCapped(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new PrometheusQueryError("bad-response", `answer of ${declared} bytes is over the ${limit}-byte limit`, { status: response.status });
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new PrometheusQueryError("bad-response", `answer is over the ${limit}-byte limit`, { status: response.status });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function interpret(status: number, contentType: string | null, body: string, display: string): { data: SuccessData; warnings: string[] } {
  let json: unknown;
  let isJson = true;
  try {
    json = JSON.parse(body);
  } catch {
    isJson = false;
  }
  const ok = status >= 200 && status < 300;
  if (!isJson) {
    const what = `${contentType ? `${contentType.split(";")[0]} ` : ""}answer: ${snippet(body)}`;
    if (!ok) throw new PrometheusQueryError("http", `${display} answered HTTP ${status} (not Prometheus' JSON), ${what}`, { status });
    throw new PrometheusQueryError("non-json", `${display} answered HTTP ${status} with a non-JSON ${what}`, { status });
  }
  const head = Status.safeParse(json);
  if (!head.success) {
    if (!ok)
      throw new PrometheusQueryError("http", `${display} answered HTTP ${status} with JSON that is not a Prometheus error: ${snippet(body)}`, { status });
    throw new PrometheusQueryError("bad-response", `${display} answered JSON without a Prometheus status: ${snippet(body)}`, { status });
  }
  if (head.data.status === "error") {
    const { errorType, error } = ErrorEnvelope.parse(json);
    const type = clip(errorType ?? "unknown");
    throw new PrometheusQueryError("prometheus", `Prometheus refused the query (HTTP ${status}, ${type}): ${clip(error ?? "no message")}`, {
      status,
      errorType: type,
    });
  }
  if (!ok) throw new PrometheusQueryError("http", `${display} answered HTTP ${status} with a success body`, { status });
  const parsed = SuccessEnvelope.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PrometheusQueryError(
      "bad-response",
      `${display} answered JSON that is not a Prometheus query result (${issue.path.join(".") || "top level"}: ${issue.message})`,
      { status },
    );
  }
  const envelope = parsed.data;
  return { data: envelope.data, warnings: (envelope.warnings ?? []).map(clip) };
}

const clip = (s: string) => (s.length > 500 ? `${s.slice(0, 500)}…` : s);
function snippet(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  if (line === "") return "(empty body)";
  return JSON.stringify(line.length > SNIPPET ? `${line.slice(0, SNIPPET)}…` : line);
}
