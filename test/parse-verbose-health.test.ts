import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseVerboseHealth } from "./parse-verbose-health";

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, "fixtures", name), "utf8");

describe("parseVerboseHealth on master-1's /readyz?verbose", () => {
  const health = parseVerboseHealth(fixture("kas-readyz-verbose-master-1.txt"));

  it("finds kms-providers as the one failing check, reason withheld", () => {
    expect(health.problems).toEqual([]);
    expect(health.overall).toBe("failed");
    expect(health.endpoint).toBe("readyz");
    expect(health.checks).toHaveLength(10);
    expect(health.checks.filter((c) => !c.ok)).toEqual([{ name: "kms-providers", ok: false, reason: "reason withheld" }]);
    expect(health.checks.find((c) => c.name === "poststarthook/rbac/bootstrap-roles")).toEqual({ name: "poststarthook/rbac/bootstrap-roles", ok: true });
  });
});

describe("parseVerboseHealth, other bodies", () => {
  it("reads a passing healthz, an excluded check and a plain ok", () => {
    const passing = parseVerboseHealth("[+]ping ok\n[+]etcd excluded: ok\nhealthz check passed\n");
    expect(passing).toEqual({
      checks: [
        { name: "ping", ok: true },
        { name: "etcd", ok: true, excluded: true },
      ],
      overall: "passed",
      endpoint: "healthz",
      problems: [],
    });
    expect(parseVerboseHealth("ok")).toEqual({ checks: [], overall: "passed", problems: [] });
  });

  it("names lines it cannot read and a missing verdict", () => {
    const health = parseVerboseHealth("[+]ping ok\n<html>502 Bad Gateway</html>\n[-]etcd broken\n");
    expect(health.problems).toEqual([
      'line 2: not a health check line: "<html>502 Bad Gateway</html>"',
      'line 3: failing check etcd says "broken", not "failed: <reason>"',
      'no final "<endpoint> check passed|failed" line',
    ]);
    expect(health.checks).toEqual([
      { name: "ping", ok: true },
      { name: "etcd", ok: false, reason: "broken" },
    ]);
  });
});
