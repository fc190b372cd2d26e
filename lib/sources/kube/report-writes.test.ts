import { describe, expect, it } from "vitest";
import { fixtureText } from "@/test/fixture-files";
import { readReportWrites, writeKey } from "./report-writes";

// The API server's time of each reporter's last write, read from metadata.managedFields: the real fixture, and
// managed fields a hostile or broken API server could send.

const PREFIX = "KMSHealthReporter_";

describe("readReportWrites", () => {
  it("reads each typed report's write time from the fixture's field managers", () => {
    const cr = JSON.parse(fixtureText("kubeapiserver-operator-cr-typed-healthreports.json"));
    expect(readReportWrites(cr.metadata.managedFields, PREFIX)).toEqual({
      [writeKey("master-0", "1")]: "2026-08-20T10:14:41Z",
      [writeKey("master-0", "2")]: "2026-08-20T10:14:41Z",
      [writeKey("master-1", "1")]: "2026-08-20T10:14:52Z",
      [writeKey("master-1", "2")]: "2026-08-20T10:14:52Z",
      [writeKey("master-2", "1")]: "2026-08-20T10:11:37Z",
      [writeKey("master-2", "2")]: "2026-08-20T10:11:37Z",
    });
  });

  it("reads reporter conditions by node, keeps the newest time, and ignores managers that do not write the timestamp or message", () => {
    const condition = (node: string, owned: object) => ({ [`k:{"type":"${PREFIX}${node}"}`]: owned });
    const fields = [
      { manager: "r0", time: "2026-08-20T10:00:00Z", fieldsV1: { "f:status": { "f:conditions": condition("master-0", { "f:message": {} }) } } },
      { manager: "r0b", time: "2026-08-20T10:05:00Z", fieldsV1: { "f:status": { "f:conditions": condition("master-0", { "f:message": {} }) } } },
      { manager: "operator", time: "2026-08-20T11:00:00Z", fieldsV1: { "f:status": { "f:conditions": condition("master-0", { "f:status": {} }) } } },
      { manager: "other", time: "2026-08-20T11:00:00Z", fieldsV1: { "f:status": { "f:conditions": { 'k:{"type":"Degraded"}': { "f:message": {} } } } } },
    ];
    expect(readReportWrites(fields, PREFIX)).toEqual({ [writeKey("master-0")]: "2026-08-20T10:05:00Z" });
  });

  it("skips what is not managed fields, bad times and bad keys, and reads at most 500 managers", () => {
    expect(readReportWrites("nope", PREFIX)).toEqual({});
    expect(readReportWrites(null, PREFIX)).toEqual({});
    const entry = (time: unknown, key: string) => ({
      time,
      fieldsV1: { "f:status": { "f:encryptionStatus": { "f:healthReports": { [key]: { "f:lastCheckedTime": {} } } } } },
    });
    const fields = [
      entry("yesterday", 'k:{"nodeName":"a","keyID":"1"}'),
      entry(17, 'k:{"nodeName":"b","keyID":"1"}'),
      entry("2026-08-20T10:00:00Z", "k:{not json"),
      entry("2026-08-20T10:00:00Z", 'k:{"nodeName":7,"keyID":"1"}'),
      entry("2026-08-20T10:00:00Z", `k:{"nodeName":"${"x".repeat(2000)}","keyID":"1"}`),
      { time: "2026-08-20T10:00:00Z", fieldsV1: "flat" },
      ...Array.from({ length: 600 }, (_, i) => entry("2026-08-20T10:00:00Z", `k:{"nodeName":"n${i}","keyID":"1"}`)),
    ];
    const writes = readReportWrites(fields, PREFIX);
    expect(Object.keys(writes)).toHaveLength(494);
    expect(writes[writeKey("n0", "1")]).toBe("2026-08-20T10:00:00Z");
    expect(writes[writeKey("n599", "1")]).toBeUndefined();
  });
});
