import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseHealthMessage } from "./parse-health-message";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../../test/fixtures", name), "utf8");

interface Condition {
  type: string;
  message?: string;
}
const conditions: Condition[] = JSON.parse(fixture("kubeapiserver-operator-cr.json")).status.conditions;
const messageOf = (node: string) => conditions.find((c) => c.type === `KMSHealthReporter_${node}`)?.message ?? "";

describe("parseHealthMessage on the fixture CR's reporter conditions", () => {
  it("reads master-1's new plugin as unhealthy with the plugin's own words", () => {
    const parsed = parseHealthMessage(messageOf("master-1"));
    expect(parsed.format).toBe("json");
    expect(parsed.error).toBeUndefined();
    expect(parsed.reports).toEqual([
      {
        keyID: "2",
        kekID: "kek-7c41e0",
        status: "unhealthy",
        lastChecked: "2026-08-20T10:14:52Z",
        detail: "credential lacks decrypt permission",
      },
      { keyID: "1", kekID: "kek-3b9a22", status: "healthy", lastChecked: "2026-08-20T10:14:52Z" },
    ]);
    expect(parsed.raw).toBe(messageOf("master-1"));
  });

  it("keeps master-2's stale lastChecked exactly as written", () => {
    const parsed = parseHealthMessage(messageOf("master-2"));
    expect(parsed.reports.map((r) => [r.keyID, r.status, r.lastChecked])).toEqual([
      ["2", "healthy", "2026-08-20T10:11:37Z"],
      ["1", "healthy", "2026-08-20T10:11:37Z"],
    ]);
  });

  it("reads master-0 as two healthy plugins on both keks", () => {
    const parsed = parseHealthMessage(messageOf("master-0"));
    expect(parsed.reports.map((r) => `${r.keyID}:${r.kekID}:${r.status}`)).toEqual(["2:kek-7c41e0:healthy", "1:kek-3b9a22:healthy"]);
  });
});

describe("parseHealthMessage, other valid shapes", () => {
  it("accepts an error entry without kekID (the probe got no StatusResponse)", () => {
    const parsed = parseHealthMessage('[{"keyID":"2","status":"error","lastChecked":"2026-08-20T10:14:41Z","detail":"connection refused"}]');
    expect(parsed.format).toBe("json");
    expect(parsed.reports).toEqual([{ keyID: "2", status: "error", lastChecked: "2026-08-20T10:14:41Z", detail: "connection refused" }]);
  });

  it("treats an empty array as valid json with no reports", () => {
    expect(parseHealthMessage("[]")).toEqual({ format: "json", reports: [], raw: "[]" });
  });

  it("reads the first draft's key=value lines, kekID included", () => {
    const message =
      "keyID=1 kekID=kek-3b9a22 status=healthy lastChecked=2026-08-20T10:14:41Z\n" +
      "keyID=2 status=unhealthy lastChecked=2026-08-20T10:14:41Z detail=credential lacks decrypt permission\n";
    const parsed = parseHealthMessage(message);
    expect(parsed.format).toBe("legacy");
    expect(parsed.reports).toEqual([
      { keyID: "1", kekID: "kek-3b9a22", status: "healthy", lastChecked: "2026-08-20T10:14:41Z" },
      { keyID: "2", status: "unhealthy", lastChecked: "2026-08-20T10:14:41Z", detail: "credential lacks decrypt permission" },
    ]);
  });

  it("lets a legacy detail run to the end of the line, spaces and '=' included", () => {
    const detail = "rpc error: code = PermissionDenied desc = 403 status=denied keyID=9";
    const parsed = parseHealthMessage(`keyID=2 status=unhealthy lastChecked=2026-08-20T10:14:41Z detail=${detail}`);
    expect(parsed.format).toBe("legacy");
    expect(parsed.error).toBeUndefined();
    expect(parsed.reports).toEqual([{ keyID: "2", status: "unhealthy", lastChecked: "2026-08-20T10:14:41Z", detail }]);
  });

  it("maps the draft's 'unreachable' to the merged text's 'error'", () => {
    const parsed = parseHealthMessage("keyID=2 status=unreachable lastChecked=2026-05-08T12:34:56Z detail=connection refused");
    expect(parsed.reports[0]).toMatchObject({ status: "error", detail: "connection refused" });
  });
});

describe("parseHealthMessage on bad input: unparseable, precise, raw kept, never throws", () => {
  it("reports truncated JSON", () => {
    const truncated = messageOf("master-1").slice(0, 80);
    const parsed = parseHealthMessage(truncated);
    expect(parsed).toEqual({
      format: "unparseable",
      reports: [],
      raw: truncated,
      error: "invalid JSON: input ends early after 80 characters (truncated?)",
    });
  });

  it("names the entry and value of an unknown status", () => {
    const message = messageOf("master-0").replace(
      '"status":"healthy","lastChecked":"2026-08-20T10:14:41Z"}]',
      '"status":"degraded","lastChecked":"2026-08-20T10:14:41Z"}]',
    );
    const parsed = parseHealthMessage(message);
    expect(parsed.format).toBe("unparseable");
    expect(parsed.reports).toEqual([]);
    expect(parsed.error).toBe('entry 2: status "degraded" is not healthy, unhealthy or error');
  });

  it("names missing and mistyped fields entry by entry", () => {
    const parsed = parseHealthMessage(
      '[{"status":"healthy","lastChecked":"2026-08-20T10:14:41Z"},{"keyID":2,"status":"healthy"},{"keyID":"3","status":"healthy","lastChecked":"yesterday"},"x"]',
    );
    expect(parsed.error).toBe(
      "entry 1: keyID is missing; entry 2: keyID must be a string, got a number; entry 2: lastChecked is missing; " +
        'entry 3: lastChecked "yesterday" is not an RFC 3339 timestamp; entry 4: expected an object, got a string',
    );
  });

  it("rejects a JSON object that is not an array, and a repeated keyID", () => {
    expect(parseHealthMessage('{"keyID":"2"}').error).toBe("expected a JSON array of plugin reports, got an object");
    const repeated =
      '[{"keyID":"2","status":"healthy","lastChecked":"2026-08-20T10:14:41Z"},{"keyID":"2","status":"healthy","lastChecked":"2026-08-20T10:14:41Z"}]';
    expect(parseHealthMessage(repeated).error).toBe('entry 2: keyID "2" repeats entry 1');
  });

  it("names the line of a bad legacy line", () => {
    const cases: [string, string][] = [
      ["keyID=1 status=healthy lastChecked=2026-08-20T10:14:41Z\nkeyID=2 status=healthy", "line 2: lastChecked is missing"],
      ["keyID=1 status=healthy lastChecked=2026-08-20T10:14:41Z colour=blue", 'line 1: unknown field "colour"'],
      ["keyID=1 status=healthy healthy lastChecked=2026-08-20T10:14:41Z", 'line 1: expected key=value, got "healthy"'],
      ["keyID=1 keyID=2 status=healthy lastChecked=2026-08-20T10:14:41Z", "line 1: keyID appears twice"],
      ["keyID=1 status=degraded lastChecked=2026-08-20T10:14:41Z detail=a=b", 'line 1: status "degraded" is not healthy, unhealthy or error'],
    ];
    for (const [message, error] of cases) {
      const parsed = parseHealthMessage(message);
      expect(parsed, message).toMatchObject({ format: "unparseable", reports: [], raw: message, error });
    }
  });

  it("says what is wrong with empty, free-text and non-string messages", () => {
    expect(parseHealthMessage("").error).toBe("message is empty");
    expect(parseHealthMessage("all plugins healthy").error).toBe('message is neither a JSON array nor key=value lines: starts with "all plugins healthy"');
    expect(parseHealthMessage(42)).toEqual({
      format: "unparseable",
      reports: [],
      raw: "",
      error: "message is a number, not a string",
    });
  });
});
