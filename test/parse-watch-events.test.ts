import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseWatchLine, parseWatchStream } from "./parse-watch-events";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";
import { readDaemonSet } from "@/lib/sources/kube/read-workloads";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "fixtures", name), "utf8");

describe("parseWatchStream on the kubeapiservers watch", () => {
  const stream = parseWatchStream(fixture("watch-events.ndjson"));

  it("reads the replay, its end bookmark, two updates and a plain bookmark", () => {
    expect(stream.problems).toEqual([]);
    expect(stream.events.map((e) => e.type)).toEqual(["ADDED", "BOOKMARK", "MODIFIED", "MODIFIED", "BOOKMARK"]);
    expect(stream.events[1]).toMatchObject({ resourceVersion: "4471203", initialEventsEnd: true });
    expect(stream.events[4]).toMatchObject({ resourceVersion: "4471302", initialEventsEnd: false });
    expect(stream.resumeFrom).toBe("4471302");
  });

  it("carries objects the operator reader understands: master-1 advanced, master-2 did not", () => {
    const last = readOperatorStatus(stream.events[3].object);
    expect(last.resourceVersion).toBe("4471240");
    const lastChecked = (node: string) => last.reporterConditions.find((r) => r.nodeName === node)?.parsed.reports[0].lastChecked;
    expect(lastChecked("master-1")).toBe("2026-08-20T10:15:22Z");
    expect(lastChecked("master-2")).toBe("2026-08-20T10:11:37Z");
  });
});

describe("parseWatchStream on the expired re-watch", () => {
  it("turns the 410 ERROR into a Status and drops the resume point", () => {
    const stream = parseWatchStream(fixture("watch-reconnect-410.ndjson"));
    expect(stream.problems).toEqual([]);
    expect(stream.events).toHaveLength(1);
    expect(stream.events[0].type).toBe("ERROR");
    expect(stream.events[0].status).toEqual({
      kind: "status",
      code: 410,
      status: "Failure",
      reason: "Expired",
      message: "too old resource version: 4470001 (4470712)",
      causes: [],
    });
    expect(stream.resumeFrom).toBeUndefined();
  });
});

describe("parseWatchStream on the DaemonSet watch", () => {
  const stream = parseWatchStream(fixture("watch-events-daemonset.ndjson"));
  const views = stream.events.map((e) => readDaemonSet(e.object));

  it("sees one unavailable pod, then recovery, then foreground deletion", () => {
    expect(stream.events.map((e) => e.type)).toEqual(["ADDED", "MODIFIED", "MODIFIED", "DELETED"]);
    expect(views[0]).toMatchObject({ desired: 6, available: 5, unavailable: 1, done: false, deleting: false });
    expect(views[1]).toMatchObject({ desired: 6, ready: 6, available: 6, unavailable: 0, done: true, deleting: false });
    expect(views[2]).toMatchObject({ done: true, deleting: true });
    expect(stream.events[3].resourceVersion).toBe("4471802");
  });
});

describe("parseWatchLine on bad input", () => {
  it("says what is wrong and keeps the line", () => {
    const truncated = fixture("watch-reconnect-410.ndjson").slice(0, 60);
    expect(parseWatchLine(truncated)).toEqual({
      kind: "problem",
      problem: "watch line: invalid JSON: input ends early after 60 characters (truncated?)",
      raw: truncated,
    });
    const cases: [string, string][] = [
      ['{"type":"UPDATED","object":{}}', 'watch event type "UPDATED" is not ADDED, MODIFIED, DELETED, BOOKMARK, ERROR'],
      ['{"object":{}}', "watch event has no type"],
      ['{"type":"ADDED","object":"pod"}', "ADDED event object is a string, not an object"],
      ['{"type":"BOOKMARK","object":{"kind":"KubeAPIServer","metadata":{}}}', "BOOKMARK event has no metadata.resourceVersion"],
      ['{"type":"ERROR","object":{"kind":"Pod"}}', 'ERROR event: a "Pod" object is not a valid Status: kind is "Pod", expected "Status"; code is missing'],
      ["[]", "watch line is an array, not an event object"],
    ];
    for (const [line, problem] of cases) expect(parseWatchLine(line), line).toEqual({ kind: "problem", problem, raw: line });
  });

  it("numbers bad lines in a stream and keeps the good ones", () => {
    const lines = fixture("watch-events-daemonset.ndjson").trim().split("\n");
    const stream = parseWatchStream([lines[0], "", lines[1].slice(0, 100), lines[3]].join("\n"));
    expect(stream.events.map((e) => e.type)).toEqual(["ADDED", "DELETED"]);
    expect(stream.problems).toEqual([
      { line: 3, problem: "watch line: invalid JSON: input ends early after 100 characters (truncated?)", raw: lines[1].slice(0, 100) },
    ]);
  });

  it("never passes a Secret's values on, not even in a problem", () => {
    const secret = {
      kind: "Secret",
      apiVersion: "v1",
      metadata: {
        name: "bao-token",
        resourceVersion: "12",
        annotations: { "kubectl.kubernetes.io/last-applied-configuration": '{"data":{"token":"czMuc2VjcmV0"}}' },
      },
      data: { token: "czMuc2VjcmV0" },
      stringData: { token: "s3.secret" },
    };
    const event = parseWatchLine(JSON.stringify({ type: "ADDED", object: secret }));
    expect(JSON.stringify(event)).not.toMatch(/czMuc2VjcmV0|s3\.secret/);
    expect(event).toMatchObject({ kind: "event", object: { data: { token: "[redacted]" } } });
    const broken = parseWatchLine(JSON.stringify({ type: "ADDED", object: secret }).slice(0, 200));
    expect(broken.kind).toBe("problem");
    expect(JSON.stringify(broken)).not.toMatch(/czMuc2VjcmV0|s3\.secret/);
    // Kind last: the data comes first, so the line cannot be trusted even before it is parsed.
    const kindLast = JSON.stringify({ type: "ADDED", object: { data: secret.data, kind: "Secret" } }).slice(0, 50);
    expect(parseWatchLine(kindLast)).toEqual({ kind: "problem", problem: "watch line: invalid JSON: input ends early after 50 characters (truncated?)" });
  });

  it("does not throw on a value that is not a string", () => {
    expect(parseWatchLine(7)).toEqual({ kind: "problem", problem: "watch line is a number, not a string" });
  });
});
