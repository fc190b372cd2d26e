import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import { rankSuspects, suspectsChanged } from "./suspects";

// Against the real catalog: what an on-call reads under "suspects".

const entries = () => getCatalog().entries;

describe("suspects", () => {
  it("ranks the failure mode that a rare active signal names first, with a reason a person can read", () => {
    const ranked = rankSuspects({
      active: [
        { signal: "openbao.sealed", subject: "openbao", state: "critical", detail: "sealed (503): every KMS encrypt and decrypt fails until it is unsealed" },
        { signal: "kms.plugin.unhealthy", subject: "master-1/2", state: "critical", detail: "error: transit encrypt failed" },
      ],
      entries: entries(),
    });
    expect(ranked[0]).toMatchObject({ id: "openbao-sealed", signals: expect.arrayContaining(["openbao.sealed"]) });
    expect(ranked[0].reason).toMatch(/^detected by .*openbao\.sealed \(active on openbao\)/);
    const plugin = ranked.find((s) => s.signals.includes("kms.plugin.unhealthy") && s.startupBlock === "yes")!;
    expect(plugin.reason).toContain("kms.plugin.unhealthy (active on master-1/2)");
    expect(plugin.reason).toContain("blocks API-server start-up");
  });

  it("puts a failure mode an alert named above everything the signals suggest", () => {
    const ranked = rankSuspects({
      active: [{ signal: "openbao.sealed", subject: "openbao", state: "critical" }],
      linked: [{ id: "jwt-expired-apiserver-down", by: "KMSPluginTokenExpiring" }],
      entries: entries(),
    });
    expect(ranked[0]).toMatchObject({ id: "jwt-expired-apiserver-down", linkedBy: ["KMSPluginTokenExpiring"] });
    expect(ranked[0].reason).toMatch(/^named by the alert KMSPluginTokenExpiring; blocks API-server start-up/);
    expect(ranked[1].id).toBe("openbao-sealed");
  });

  it("lets the detail's words separate failure modes that share their signals", () => {
    const active = (detail: string) => [{ signal: "kms.plugin.unhealthy", subject: "master-0/1", state: "critical", detail }];
    const socket = rankSuspects({
      active: active("dial unix /var/run/kmsplugin/kms-1.sock: connect: no such file or directory (plugin unit not started yet)"),
      entries: entries(),
    });
    expect(socket[0].id).toBe("kms-systemd-ordering-wrong");
    expect(socket[0].reason).toMatch(/the detail says "[^"]+"/);
    const oidc = rankSuspects({
      active: active("openbao: permission denied: error validating token: fetching keys oidc: get keys failed"),
      entries: entries(),
    });
    expect(oidc[0].id).toBe("jwks-or-oidc-discovery-unreachable");
  });

  it("weighs an unknown signal below a critical one and suggests nothing when nothing is active", () => {
    const critical = rankSuspects({ active: [{ signal: "openbao.sealed", subject: "openbao", state: "critical" }], entries: entries() });
    const unknown = rankSuspects({ active: [{ signal: "openbao.sealed", subject: "openbao", state: "unknown" }], entries: entries() });
    expect(unknown[0].id).toBe(critical[0].id);
    expect(unknown[0].score).toBeLessThan(critical[0].score);
    expect(rankSuspects({ active: [], entries: entries() })).toEqual([]);
  });

  it("notices when the order or the members change", () => {
    expect(suspectsChanged([{ id: "a" }, { id: "b" }], [{ id: "a" }, { id: "b" }])).toBe(false);
    expect(suspectsChanged([{ id: "a" }, { id: "b" }], [{ id: "b" }, { id: "a" }])).toBe(true);
    expect(suspectsChanged([{ id: "a" }], [{ id: "a" }, { id: "c" }])).toBe(true);
  });
});
