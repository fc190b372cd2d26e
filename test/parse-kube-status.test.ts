import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseKubeStatus } from "./parse-kube-status";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "fixtures", name), "utf8");

describe("parseKubeStatus on the fixture Status bodies", () => {
  it("names the field the 422 rejected: the typed report without remoteKeyID", () => {
    const status = parseKubeStatus(JSON.parse(fixture("status-422-healthreport-missing-remotekeyid.json")));
    expect(status).toMatchObject({ kind: "status", code: 422, status: "Failure", reason: "Invalid" });
    if (status.kind !== "status") return;
    expect(status.causes).toEqual([{ reason: "FieldValueRequired", message: "Required value", field: "status.encryptionStatus.healthReports[2].remoteKeyID" }]);
    expect(status.details).toEqual({ name: "cluster", group: "operator.openshift.io", kind: "KubeAPIServer" });
  });

  it("reads the 409 apply conflict's cause, whose JSON key is reason", () => {
    const status = parseKubeStatus(fixture("status-409-apply-conflict.json"));
    expect(status).toMatchObject({ kind: "status", code: 409, reason: "Conflict" });
    if (status.kind !== "status") return;
    expect(status.causes).toHaveLength(1);
    expect(status.causes[0].reason).toBe("FieldManagerConflict");
    expect(status.causes[0].field).toBe('.status.conditions[type="KMSHealthReporter_master-1"].message');
  });

  it("reads the 410 Expired with its resource versions and no causes", () => {
    expect(parseKubeStatus(fixture("status-410.json"))).toEqual({
      kind: "status",
      code: 410,
      status: "Failure",
      reason: "Expired",
      message: "too old resource version: 4470001 (4470712)",
      causes: [],
    });
  });
});

describe("parseKubeStatus on bad input", () => {
  it("says what is wrong instead of throwing", () => {
    const cases: [unknown, string][] = [
      ["[1,2", "Status body: invalid JSON: input ends early after 4 characters (truncated?)"],
      [[], "Status body is an array, not an object"],
      ['"not found"', "Status body is a string, not an object"],
      [null, "Status body is null, not an object"],
      [{ kind: "Pod", code: 200 }, 'a "Pod" object is not a valid Status: kind is "Pod", expected "Status"'],
      [{ kind: "Status", status: "Failure" }, "Status body is not a valid Status: code is missing"],
      [{ kind: "Status", code: 500, status: "Broken" }, 'Status body is not a valid Status: status "Broken" is not Success or Failure'],
    ];
    for (const [body, problem] of cases) expect(parseKubeStatus(body), JSON.stringify(body)).toEqual({ kind: "problem", problem });
  });
});
