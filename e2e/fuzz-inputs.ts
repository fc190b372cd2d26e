import fc from "fast-check";

// What the fuzz suite sends: paths with broken and exotic percent-encodings, query strings, header variants,
// and bodies from valid-looking to hostile (NUL, lone surrogates, deep nesting, huge, not JSON, not UTF-8).

export interface Input {
  method: string;
  /** Request target exactly as sent. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Sent over a raw socket, chunked, to exercise what a normal client never sends. */
  raw?: boolean;
}

export const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "PURGE", "SEARCH"];

/** A string as a percent-encoded segment; lone surrogates are encoded as their (invalid) UTF-8 bytes. */
export function encodeSegment(s: string): string {
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  }
  return out;
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udc00y",
    "\uffff",
    "\u202e",
    "../../etc/passwd",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "%00",
    "null",
    "-1",
    "0",
    "1e400",
    "99999999999999999999",
    "2147483648",
    " ",
    "",
  ),
);

/** One dynamic segment: a real value, a hostile one (properly encoded), or broken percent-encoding. */
export function segment(valid: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...valid) },
    { weight: 3, arbitrary: hostileString.map(encodeSegment).filter((s) => s.length > 0) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "%zz",
        "%",
        "%f",
        "%ff",
        "%C3",
        "%E0%A4%A",
        "%ED%A0%80",
        "%c0%af",
        "a%2Fb",
        "%00",
        "..",
        "%2e%2e",
        "%F0%9F%92%A9",
        "%25",
        "a%",
      ),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...valid), fc.constantFrom("%zz", "%ff", "%", "%0")).map(([v, bad]) => v + bad) },
  );
}

/** A query string: known keys and random ones, hostile values, broken escapes; sometimes none. */
export function query(keys: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom(...keys, "x", "__proto__", "constructor"), fc.string({ maxLength: 8 }).map(encodeSegment));
  const value = fc.oneof(
    hostileString.map(encodeSegment),
    fc.constantFrom("%zz", "%ff", "%", "a,b,,c", "open,acknowledged", "1", "500", "json", "markdown", "A.B.C"),
    fc.nat({ max: 9000 }).map((n) => "v".repeat(n)),
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 3, arbitrary: fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 4 }).map((kv) => `?${kv.map(([k, v]) => `${k}=${v}`).join("&")}`) },
  );
}

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  hostileString,
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.array(hostileString),
);

/** A body for a route whose valid body has `fields` (each with a few good values): near-valid, random, hostile. */
export function body(fields: Record<string, unknown[]>, limit: number): fc.Arbitrary<Buffer | undefined> {
  const value = (good: unknown[]) => fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: jsonish });
  const keys = Object.keys(fields);
  const near = fc.oneof(
    { weight: 2, arbitrary: fc.record(Object.fromEntries(keys.map((k) => [k, value(fields[k])]))) },
    { weight: 1, arbitrary: fc.record(Object.fromEntries(keys.map((k) => [k, value(fields[k])])), { requiredKeys: [] }) },
  );
  const withExtra = fc.tuple(near, fc.dictionary(fc.string({ maxLength: 6 }), jsonish, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a }));
  const json = (v: fc.Arbitrary<unknown>) => v.map((x) => Buffer.from(JSON.stringify(x) ?? "null"));
  const deep = fc
    .tuple(fc.constantFrom(...Object.keys(fields), "evidence"), fc.integer({ min: 20, max: 4000 }), fc.boolean())
    .map(([k, depth, arrays]) => Buffer.from(`{"${k}":${(arrays ? "[" : '{"a":').repeat(depth)}1${(arrays ? "]" : "}").repeat(depth)}}`));
  return fc.oneof(
    { weight: 6, arbitrary: json(near) },
    { weight: 2, arbitrary: json(withExtra) },
    { weight: 2, arbitrary: json(jsonish) },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("", " ", "{", "[1,", '{"a":1}{"b":2}', "\ufeff{}", '{"actor":"\\ud800"}', '{"text":"\\u0000"}', "null", '"x"')
        .map((s) => Buffer.from(s)),
    },
    { weight: 1, arbitrary: fc.constantFrom(limit + 1, 64 * 1024 + 1, 200_000).map((n) => Buffer.from(`{"text":"${"x".repeat(Math.max(0, n - 11))}"}`)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=utf-16",
  "*/*",
  "garbage",
];

/** Extra headers: content types, Next.js's own request headers with junk, an idempotency key. */
/** Present in one request of `oneIn`. */
const optional = <T>(arb: fc.Arbitrary<T>, oneIn = 4) => fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
export const headers: fc.Arbitrary<Record<string, string>> = fc
  .record({
    "content-type": optional(fc.constantFrom(...CONTENT_TYPES), 2),
    accept: optional(fc.constantFrom("application/json", "text/html", "text/event-stream", "*/*"), 2),
    rsc: optional(fc.constant("1"), 12),
    "next-router-state-tree": optional(fc.constantFrom("%zz", "[1,2", encodeURIComponent('["",{"children":["__PAGE__",{}]},null,null]'), "x".repeat(2000)), 10),
    "next-action": optional(fc.constantFrom("abc", "0".repeat(40)), 8),
    "idempotency-key": optional(
      fc.oneof(
        fc.constantFrom("", " ", "k".repeat(300)),
        fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, "?")),
      ),
      2,
    ),
    "x-forwarded-host": optional(fc.constantFrom("evil.example", "%zz"), 8),
    "accept-encoding": optional(fc.constantFrom("gzip", "br", "identity;q=0"), 2),
  })
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);
