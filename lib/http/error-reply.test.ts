import { z } from "zod";
import { describe, expect, it } from "vitest";
import { Conflict, fieldErrors, Invalid, NotFound, Unavailable } from "@/lib/errors";
import { BodyTooLarge, errorReply } from "./error-reply";

// The one mapping from a refusal to its HTTP answer: what a client of the API sees for each kind.

describe("errorReply", () => {
  it("answers each kind of refusal with its status and { error, fields?, ...extra }", () => {
    expect(errorReply(new NotFound('no catalog entry with id "x"', { extra: { id: "x" } }))).toEqual({
      status: 404,
      headers: {},
      body: { error: 'no catalog entry with id "x"', id: "x" },
    });
    expect(errorReply(new Conflict("the session stands at A, not B", { fields: { node: ["must be A"] } }))).toEqual({
      status: 409,
      headers: {},
      body: { error: "the session stands at A, not B", fields: { node: ["must be A"] } },
    });
    expect(errorReply(Invalid.fields({ runbookId: ['no runbook "r"'] }))).toEqual({
      status: 400,
      headers: {},
      body: { error: "invalid request", fields: { runbookId: ['no runbook "r"'] } },
    });
    expect(errorReply(new Invalid('no node "master-9"'))).toEqual({ status: 400, headers: {}, body: { error: 'no node "master-9"' } });
    expect(errorReply(new BodyTooLarge(4096))).toEqual({ status: 413, headers: {}, body: { error: "request body larger than 4096 bytes" } });
  });

  it("tells a client of an Unavailable when to retry, and says nothing of when it was not told", () => {
    const later = errorReply(new Unavailable("store down", { retryAfterSeconds: 30, extra: { retry: true, committed: 2 } }));
    expect(later).toEqual({ status: 503, headers: { "retry-after": "30" }, body: { error: "store down", retry: true, committed: 2 } });
    expect(errorReply(new Unavailable("not yet"))).toEqual({ status: 503, headers: {}, body: { error: "not yet" } });
  });

  it("leaves a fault that is no refusal to be a 500", () => {
    expect(errorReply(new Error("connection refused"))).toBeUndefined();
    expect(errorReply(new TypeError("x is undefined"))).toBeUndefined();
    expect(errorReply("a string")).toBeUndefined();
    expect(errorReply(undefined)).toBeUndefined();
  });

  it("names zod's failures by field, the whole value as body, and a key like constructor as any other", () => {
    const parsed = z
      .strictObject({ actor: z.string().min(1, "must name who acts"), constructor: z.number() })
      .safeParse({ actor: "", constructor: "x", extra: 1 });
    expect(parsed.success).toBe(false);
    expect({ ...fieldErrors(parsed.error!) }).toEqual({
      actor: ["must name who acts"],
      constructor: [expect.stringContaining("expected number")],
      body: ['Unrecognized key: "extra"'],
    });
  });
});
