import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES, PrometheusQueryError, queryInstant, queryRange } from "./client";
import type { RunningPrometheus } from "./process";
import { startEmptyPrometheus } from "@/test/prometheus";

// Two halves: the real Prometheus (Debian's, on loopback) for every answer it can give, and a tiny
// local HTTP server for the answers only a broken proxy or a hostile endpoint gives. That server is a
// stand-in for "not Prometheus", never for Prometheus itself.

const failure = async (promise: Promise<unknown>): Promise<PrometheusQueryError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PrometheusQueryError) return error;
    throw new Error(`expected a PrometheusQueryError, got ${String(error)}`);
  }
  throw new Error("expected the query to fail");
};

describe("against a real Prometheus", () => {
  let prom: RunningPrometheus;

  beforeAll(async () => {
    prom = await startEmptyPrometheus();
  });
  afterAll(() => prom?.stop());

  it("reads vectors with labels, and NaN, +Inf and -Inf as numbers", async () => {
    const result = await queryInstant(
      prom.url,
      'label_replace(vector(0) / 0, "kind", "nan", "", "") or label_replace(vector(1) / 0, "kind", "inf", "", "") or label_replace(vector(-1) / 0, "kind", "-inf", "", "") or label_replace(vector(0.25), "kind", "quarter", "", "")',
      { time: new Date("2026-08-20T10:15:00Z") },
    );
    expect(result.resultType).toBe("vector");
    if (result.resultType !== "vector") return;
    const byKind = Object.fromEntries(result.samples.map((s) => [s.labels.kind, s.value]));
    expect(byKind).toEqual({ nan: NaN, inf: Infinity, "-inf": -Infinity, quarter: 0.25 });
    expect(result.samples.every((s) => s.t === Date.parse("2026-08-20T10:15:00Z"))).toBe(true);
  });

  it("reads scalars and strings", async () => {
    expect(await queryInstant(prom.url, "scalar(vector(42))", { time: new Date(1_000_000) })).toEqual({
      resultType: "scalar",
      sample: { t: 1_000_000, value: 42 },
      warnings: [],
    });
    expect(await queryInstant(prom.url, '"hello"', { time: new Date(1_000_000) })).toEqual({
      resultType: "string",
      sample: { t: 1_000_000, value: "hello" },
      warnings: [],
    });
  });

  it("reads a range as one point per step, times in milliseconds", async () => {
    const end = new Date("2026-08-20T10:15:00Z");
    const start = new Date(end.getTime() - 15 * 60_000);
    const { series } = await queryRange(prom.url, "vector(time())", { start, end, stepSeconds: 15 });
    expect(series).toHaveLength(1);
    expect(series[0].points).toHaveLength(61);
    expect(series[0].points[0]).toEqual({ t: start.getTime(), value: start.getTime() / 1000 });
    expect(series[0].points[60]).toEqual({ t: end.getTime(), value: end.getTime() / 1000 });
  });

  it("reports bad PromQL as Prometheus' own bad_data error with the HTTP status", async () => {
    const error = await failure(queryInstant(prom.url, "sum(rate(x[5m])"));
    expect(error).toMatchObject({ kind: "prometheus", status: 400, errorType: "bad_data" });
    expect(error.message).toMatch(/^Prometheus refused the query \(HTTP 400, bad_data\): invalid parameter "query": .*unclosed left parenthesis/);
  });

  it("reports a range with too many points as Prometheus refuses it", async () => {
    const error = await failure(queryRange(prom.url, "vector(1)", { start: new Date(0), end: new Date(86_400_000), stepSeconds: 1 }));
    expect(error).toMatchObject({ kind: "prometheus", status: 400, errorType: "bad_data" });
    expect(error.message).toContain("exceeded maximum resolution of 11,000 points per timeseries");
  });

  it("reports an execution error (many-to-many matching) with errorType execution", async () => {
    const error = await failure(
      queryInstant(prom.url, 'label_replace(vector(1), "a", "x", "", "") + on() (vector(1) or label_replace(vector(2), "b", "y", "", ""))'),
    );
    expect(error).toMatchObject({ kind: "prometheus", status: 422, errorType: "execution" });
  });

  it("finds Prometheus under a path prefix only when it is served there", async () => {
    const error = await failure(queryInstant(`${prom.url}/prefix`, "vector(1)"));
    expect(error).toMatchObject({ kind: "http", status: 404 });
  });
});

describe("against endpoints that are not a healthy Prometheus", () => {
  let server: Server;
  let base: string;
  const seen: { path: string; authorization?: string; body: string }[] = [];
  const sleepers = new Set<ServerResponse>();

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    "bad-gateway": (_q, res) => res.writeHead(502, { "content-type": "text/html" }).end("<html><body><h1>502 Bad Gateway</h1></body></html>"),
    "login-page": (_q, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Sign in</title>"),
    empty: (_q, res) => res.writeHead(200).end(),
    "not-a-number": (_q, res) => json(res, 200, { status: "success", data: { resultType: "vector", result: [{ metric: {}, value: [1, "twelve"] }] } }),
    "numeric-label": (_q, res) => json(res, 200, { status: "success", data: { resultType: "vector", result: [{ metric: { instance: 7 }, value: [1, "1"] }] } }),
    "other-json": (_q, res) => json(res, 200, { hello: "world" }),
    "json-nan": (_q, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"success","data":{"resultType":"scalar","result":[1,NaN]}}'),
    "error-500-json": (_q, res) => json(res, 503, { status: "error", errorType: "unavailable", error: "TSDB not ready" }),
    "error-no-fields": (_q, res) => json(res, 400, { status: "error" }),
    "html-error-json-ish": (_q, res) => json(res, 500, { message: "internal" }),
    "success-on-500": (_q, res) => json(res, 500, { status: "success", data: { resultType: "vector", result: [] } }),
    redirect: (_q, res) => res.writeHead(302, { location: "/login" }).end(),
    "vector-for-range": (_q, res) => json(res, 200, { status: "success", data: { resultType: "vector", result: [] } }),
    "native-histogram": (_q, res) =>
      json(res, 200, {
        status: "success",
        warnings: ["native histograms dropped"],
        data: {
          resultType: "vector",
          result: [
            { metric: { a: "b" }, histogram: [1, { count: "3" }] },
            { metric: { a: "c" }, value: [1, "+Inf"] },
          ],
        },
      }),
    "deep-nesting": (_q, res) => res.writeHead(200, { "content-type": "application/json" }).end(`${"[".repeat(200_000)}${"]".repeat(200_000)}`),
    "huge-declared": (_q, res) => res.writeHead(200, { "content-type": "application/json", "content-length": String(MAX_RESPONSE_BYTES + 1) }).end(),
    "huge-streamed": (_q, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent <= MAX_RESPONSE_BYTES + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", push);
        }
        res.end();
      };
      push();
    },
    hang: (_q, res) => void sleepers.add(res),
    "stall-body": (_q, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"status":"success","data":');
      sleepers.add(res);
    },
    echo: (_q, res) => json(res, 200, { status: "success", data: { resultType: "vector", result: [] } }),
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const name = (req.url ?? "").split("/")[1];
        seen.push({ path: req.url ?? "", authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
        (routes[name] ?? ((_q, r) => r.writeHead(404).end("404 page not found\n")))(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of sleepers) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const instant = (route: string, timeoutMs?: number) => failure(queryInstant(`${base}/${route}`, "up", { timeoutMs }));

  it("says a proxy's HTML error page is an HTTP error, with a bit of the page", async () => {
    const error = await instant("bad-gateway");
    expect(error).toMatchObject({ kind: "http", status: 502 });
    expect(error.message).toBe(
      `${base}/bad-gateway/api/v1/query answered HTTP 502 (not Prometheus' JSON), text/html answer: "<html><body><h1>502 Bad Gateway</h1></body></html>"`,
    );
  });

  it("says a 200 that is not JSON is not Prometheus", async () => {
    expect(await instant("login-page")).toMatchObject({
      kind: "non-json",
      status: 200,
      message: expect.stringContaining('text/html answer: "<!doctype html><title>Sign in</title>"'),
    });
    expect(await instant("empty")).toMatchObject({ kind: "non-json", message: expect.stringContaining("(empty body)") });
    expect(await instant("json-nan")).toMatchObject({ kind: "non-json" });
  });

  it("refuses JSON that is not a query result, naming the bad field", async () => {
    expect((await instant("not-a-number")).message).toContain('(data.result.0.value.1: not a sample value: "twelve")');
    expect(await instant("numeric-label")).toMatchObject({ kind: "bad-response", message: expect.stringContaining("data.result.0.metric.instance") });
    expect(await instant("other-json")).toMatchObject({ kind: "bad-response" });
    expect(await instant("success-on-500")).toMatchObject({ kind: "http", status: 500 });
    expect(await instant("html-error-json-ish")).toMatchObject({ kind: "http", status: 500 });
  });

  it("passes on Prometheus-style errors from anything in front of it", async () => {
    expect(await instant("error-500-json")).toMatchObject({
      kind: "prometheus",
      status: 503,
      errorType: "unavailable",
      message: "Prometheus refused the query (HTTP 503, unavailable): TSDB not ready",
    });
    expect(await instant("error-no-fields")).toMatchObject({
      kind: "prometheus",
      errorType: "unknown",
      message: "Prometheus refused the query (HTTP 400, unknown): no message",
    });
  });

  it("does not follow a redirect to a login page", async () => {
    expect(await instant("redirect")).toMatchObject({ kind: "http", status: 302 });
  });

  it("refuses a vector where a range must be a matrix", async () => {
    const error = await failure(queryRange(`${base}/vector-for-range`, "up", { start: new Date(0), end: new Date(60_000), stepSeconds: 15 }));
    expect(error).toMatchObject({ kind: "bad-response", message: "query_range answered a vector, not a matrix" });
  });

  it("drops native-histogram samples and keeps warnings", async () => {
    const result = await queryInstant(`${base}/native-histogram`, "x");
    expect(result).toEqual({ resultType: "vector", samples: [{ labels: { a: "c" }, t: 1000, value: Infinity }], warnings: ["native histograms dropped"] });
  });

  it("survives deeply nested and oversized answers", async () => {
    expect(await instant("deep-nesting")).toBeInstanceOf(PrometheusQueryError);
    expect(await instant("huge-declared")).toMatchObject({
      kind: "bad-response",
      message: `answer of ${MAX_RESPONSE_BYTES + 1} bytes is over the ${MAX_RESPONSE_BYTES}-byte limit`,
    });
    expect(await instant("huge-streamed")).toMatchObject({ kind: "bad-response", message: `answer is over the ${MAX_RESPONSE_BYTES}-byte limit` });
  });

  it("times out on a server that never answers, or stops half-way through the body", async () => {
    const started = Date.now();
    expect(await instant("hang", 300)).toMatchObject({ kind: "timeout", message: `no answer from ${base}/hang/api/v1/query within 300 ms` });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await instant("stall-body", 300)).toMatchObject({ kind: "timeout" });
  });

  it("says unreachable for a closed port and invalid-url for a non-http URL", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await failure(queryInstant(`http://127.0.0.1:${port}`, "up"))).toMatchObject({
      kind: "unreachable",
      message: `cannot reach http://127.0.0.1:${port}/api/v1/query: ECONNREFUSED`,
    });
    expect(await failure(queryInstant("ftp://127.0.0.1/", "up"))).toMatchObject({ kind: "invalid-url" });
    expect(await failure(queryInstant("not a url", "up"))).toMatchObject({ kind: "invalid-url" });
  });

  it("posts the query, sends credentials from the URL as basic auth, and never echoes the password", async () => {
    seen.length = 0;
    await queryInstant(`http://faultline:s3cr%40t@127.0.0.1:${new URL(base).port}/echo/`, 'up{job="kms"}', { time: new Date(1_500), timeoutMs: 4000 });
    expect(seen[0]).toEqual({
      path: "/echo/api/v1/query",
      authorization: `Basic ${Buffer.from("faultline:s3cr@t").toString("base64")}`,
      body: "query=up%7Bjob%3D%22kms%22%7D&time=1.500&timeout=4s",
    });
    const error = await failure(queryInstant(`http://faultline:s3cr%40t@127.0.0.1:${new URL(base).port}/bad-gateway`, "up"));
    expect(error.message).not.toContain("s3cr");
  });
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
