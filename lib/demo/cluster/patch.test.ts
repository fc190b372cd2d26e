import { describe, expect, it } from "vitest";
import type { JsonObject } from "./fields";
import { jsonPatch, strategicMerge } from "./patch";
import { RESOURCES } from "./resources";
import { fieldSelector, labelSelector } from "./selectors";
import { StoreError } from "./store";

// The patch and selector rules on their own, for the cases the real-client test does not reach.

const pod = (): JsonObject => ({
  metadata: { name: "p", labels: { app: "a", "example.com/tier": "gold" }, finalizers: ["x"] },
  spec: {
    containers: [
      { name: "api", image: "api:1", env: [{ name: "A", value: "1" }] },
      { name: "side", image: "side:1" },
    ],
    tolerations: [{ key: "t" }],
  },
});

describe("strategic merge patch", () => {
  it("merges lists by their merge key, replaces lists without one, and honours $patch directives", () => {
    const out = strategicMerge(pod(), {
      metadata: { finalizers: ["y"] },
      spec: {
        containers: [
          { name: "api", image: "api:2", env: [{ name: "B", value: "2" }] },
          { name: "side", $patch: "delete" },
        ],
        tolerations: [{ key: "u" }],
        "$setElementOrder/containers": [{ name: "api" }],
      },
    }) as JsonObject;
    expect(out.spec).toEqual({
      containers: [
        {
          name: "api",
          image: "api:2",
          env: [
            { name: "A", value: "1" },
            { name: "B", value: "2" },
          ],
        },
      ],
      tolerations: [{ key: "u" }],
    });
    expect((out.metadata as JsonObject).finalizers).toEqual(["x", "y"]);
    const replaced = strategicMerge(pod(), { spec: { $patch: "replace", containers: [{ name: "only", image: "o:1" }] } }) as JsonObject;
    expect(replaced.spec).toEqual({ containers: [{ name: "only", image: "o:1" }] });
    const removed = strategicMerge(pod(), { metadata: { labels: { "example.com/tier": null } } }) as JsonObject;
    expect((removed.metadata as JsonObject).labels).toEqual({ app: "a" });
  });
});

describe("JSON patch", () => {
  it("applies add, remove, replace, move, copy and test in order, with pointer escapes", () => {
    const out = jsonPatch(pod(), [
      { op: "add", path: "/metadata/labels/example.com~1zone", value: "z" },
      { op: "copy", from: "/metadata/labels/app", path: "/metadata/labels/copy" },
      { op: "move", from: "/metadata/labels/copy", path: "/metadata/labels/moved" },
      { op: "replace", path: "/spec/containers/0/image", value: "api:3" },
      { op: "remove", path: "/spec/containers/1" },
      { op: "add", path: "/spec/tolerations/-", value: { key: "end" } },
      { op: "test", path: "/metadata/labels/moved", value: "a" },
    ]);
    expect((out.metadata as JsonObject).labels).toEqual({ app: "a", "example.com/tier": "gold", "example.com/zone": "z", moved: "a" });
    expect(out.spec).toMatchObject({ containers: [{ name: "api", image: "api:3" }], tolerations: [{ key: "t" }, { key: "end" }] });
  });

  it("refuses a failed test, a missing path and a body that is not a list, as the server does", () => {
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return [(error as StoreError).code, (error as StoreError).details?.causes ?? (error as StoreError).message];
      }
      return "no error";
    };
    expect(codeOf(() => jsonPatch(pod(), [{ op: "test", path: "/metadata/name", value: "q" }]))).toEqual([
      422,
      [{ reason: "UnexpectedServerResponse", message: "testing value /metadata/name failed: test failed" }],
    ]);
    expect(codeOf(() => jsonPatch(pod(), [{ op: "remove", path: "/metadata/nothing" }]))[0]).toBe(422);
    expect(codeOf(() => jsonPatch(pod(), { op: "add" }))[0]).toBe(400);
  });
});

describe("selectors", () => {
  const node = (labels: Record<string, string>): JsonObject => ({ metadata: { name: "n", labels } });
  it("matches equality- and set-based label selectors as apimachinery does", () => {
    const m = (text: string, labels: Record<string, string>) => labelSelector(text)!(node(labels));
    expect(m("a=1,b", { a: "1", b: "" })).toBe(true);
    expect(m("a!=1", {})).toBe(true);
    expect(m("a in (1, 2)", { a: "2" })).toBe(true);
    expect(m("a notin (1)", {})).toBe(true);
    expect(m("!a", { a: "1" })).toBe(false);
    expect(m("n>3", { n: "4" })).toBe(true);
    expect(m("example.com/zone==z", { "example.com/zone": "z" })).toBe(true);
  });

  it("refuses malformed selectors and unsupported fields with 400", () => {
    const status = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return `${(error as StoreError).code} ${(error as StoreError).message}`;
      }
      return "accepted";
    };
    expect(status(() => labelSelector("a b c"))).toMatch(/^400 unable to parse requirement/);
    expect(status(() => labelSelector("Bad_/x=1"))).toMatch(/^400 unable to parse requirement: key: Invalid value/);
    const nodes = RESOURCES.find((r) => r.plural === "nodes")!;
    const crs = RESOURCES.find((r) => r.plural === "kubeapiservers")!;
    expect(status(() => fieldSelector("spec.unschedulable=true", nodes))).toBe("accepted");
    expect(status(() => fieldSelector("spec.unschedulable=true", crs))).toBe("400 field label not supported: spec.unschedulable");
  });
});
