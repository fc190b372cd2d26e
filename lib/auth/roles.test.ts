import { describe, expect, it } from "vitest";
import { inRanges, RoleGroups } from "@/lib/auth-config";
import { parseEnv } from "@/lib/env";
import { principalOf } from "./principal";
import { roleFromGroups } from "./roles";

const mapping = RoleGroups.parse({ admin: ["sre-leads"], responder: ["sre"], viewer: ["*"] });

describe("roles from groups", () => {
  it("gives the highest role any group maps to; * is anyone signed in; none maps to nothing", () => {
    expect(roleFromGroups(["sre", "sre-leads"], mapping)).toBe("admin");
    expect(roleFromGroups(["staff", "sre"], mapping)).toBe("responder");
    expect(roleFromGroups([], mapping)).toBe("viewer");
    expect(roleFromGroups(["sre"], RoleGroups.parse({ viewer: ["staff"] }))).toBeUndefined();
    // Group names are compared exactly: no case folding, no prefixes.
    expect(roleFromGroups(["SRE-LEADS", "sre-leads-alumni"], RoleGroups.parse({ admin: ["sre-leads"] }))).toBeUndefined();
  });

  it("refuses the names the rules and Alertmanager act under, and says why someone has no role", () => {
    const env = parseEnv({ FAULTLINE_AUTH: "proxy", FAULTLINE_PROXY_SOURCES: "127.0.0.1", FAULTLINE_ROLE_GROUPS: '{"viewer":["staff"]}' });
    expect(principalOf("Alertmanager", ["staff"], "proxy", env)).toMatchObject({
      ok: false,
      status: 403,
      error: expect.stringContaining("nobody signs in as it"),
    });
    expect(principalOf("mia", ["marketing", "sales"], "proxy", env)).toMatchObject({
      ok: false,
      status: 403,
      error: "mia is signed in but none of their groups (marketing, sales) has a role in Faultline; ask an admin to add one to FAULTLINE_ROLE_GROUPS",
    });
    expect(principalOf("vera", ["staff"], "proxy", env)).toMatchObject({ ok: true, principal: { user: "vera", role: "viewer" } });
  });
});

describe("proxy source ranges", () => {
  const ranges = parseEnv({ FAULTLINE_PROXY_SOURCES: "10.0.4.0/24, 127.0.0.1, fd00::/8" }).FAULTLINE_PROXY_SOURCES!;
  it("matches addresses as sockets report them, IPv4-mapped IPv6 included", () => {
    expect(["10.0.4.1", "10.0.4.255", "127.0.0.1", "::ffff:127.0.0.1", "fd00::1"].filter((a) => inRanges(a, ranges))).toHaveLength(5);
    expect(["10.0.5.1", "127.0.0.2", "::1", "fe80::1", "", "not-an-ip", "::ffff:10.0.5.1"].filter((a) => inRanges(a, ranges))).toEqual([]);
  });
});
