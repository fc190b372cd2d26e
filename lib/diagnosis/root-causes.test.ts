import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import type { FailureMode } from "@/lib/catalog/schema";
import { diagnose, type ActiveSignal, type DiagnoseInput } from "./rank";
import { answerNames } from "./root-causes";

// One answer per failure, against the real catalog and its root-cause groups: the views of one outage join its root
// and hold their shares together; a view whose roots the evidence rules out stands alone.

const catalog = getCatalog();
const modes = catalog.entries.filter((e): e is FailureMode => e.kind === "failure-mode");
const rank = (active: ActiveSignal[], extra: Partial<DiagnoseInput> = {}) =>
  diagnose({ active, modes, classes: catalog.errorClasses, runbooks: catalog.runbooks, groups: catalog.rootCauses, limit: 50, ...extra });

const sealed: ActiveSignal[] = [
  { signal: "openbao.sealed", subject: "openbao", state: "critical", detail: "OpenBao answers 503: sealed" },
  { signal: "kms.plugin.unhealthy", subject: "master-0/1", state: "critical", detail: "Error making API request. Code: 503. Errors: * Vault is sealed" },
  {
    signal: "wrapper.restarting",
    subject: "default/payments-0",
    state: "warning",
    detail: '{"level":"error","msg":"cannot connect to vault","error":"dial tcp 10.0.0.40:8200: i/o timeout"}',
  },
];

describe("root causes and their facets", () => {
  it("answers a sealed OpenBao once, with the stack's and the wrappers' views as its facets and their shares in its confidence", () => {
    const flat = rank(sealed, { groups: [] });
    const [first, ...rest] = rank(sealed);
    expect(first.id).toBe("openbao-sealed");
    expect(first.rootCause?.id).toBe("openbao-outage");
    const facets = first.facets!.map((f) => f.id);
    expect(facets).toEqual(expect.arrayContaining(["stack-openbao-down", "wrapper-blocked-on-openbao"]));
    // The views are not rival answers any more, and the root holds their shares.
    expect(rest.map((s) => s.id)).not.toContain("stack-openbao-down");
    const share = (id: string) => flat.find((s) => s.id === id)?.confidence ?? 0;
    expect(first.confidence).toBeCloseTo(
      ["openbao-sealed", ...facets].reduce((sum, id) => sum + share(id), 0),
      2,
    );
    expect(answerNames(first, "stack-openbao-down")).toBe(true);
    // What the wrappers say is the answer's own account now, not held against its root.
    expect(first.contradicts.join(" ")).not.toContain("cannot connect to vault");
  });

  it("joins a wrapper blocked at start-up to the beacon that is down, not to OpenBao, when OpenBao is seen healthy", () => {
    const active: ActiveSignal[] = [
      { signal: "beacon.unreachable", subject: "beacon", state: "critical", detail: "the bridge reaches none of the beacon's 3 relay nodes" },
      sealed[2],
    ];
    const healthy = [
      { signal: "openbao.unreachable", subject: "openbao" },
      { signal: "openbao.sealed", subject: "openbao" },
    ];
    const [first] = rank(active, { healthy });
    expect(first.id).toBe("beacon-down");
    expect(first.facets?.map((f) => f.id)).toContain("wrapper-blocked-on-openbao");
    expect(first.rootCause?.id).toBe("protection-path-down");
  });

  it("leaves a view alone when the evidence rules its roots out", () => {
    const healthy = ["openbao.unreachable", "openbao.sealed", "beacon.unreachable", "bridge.unavailable"].map((signal) => ({ signal, subject: "x" }));
    const ranked = rank([sealed[2]], { healthy });
    const wrapper = ranked.find((s) => s.id === "wrapper-blocked-on-openbao");
    expect(wrapper).toBeDefined();
    expect(wrapper!.facets).toBeUndefined();
    expect(ranked.some((s) => s.facets?.some((f) => f.id === "wrapper-blocked-on-openbao"))).toBe(false);
  });
});

describe("a separating question answered where it is asked", () => {
  it("offers a catalog question's two suspects as its answers, and a choice re-ranks and is not asked again", () => {
    // The plugin's own "connection refused" names plugin faults that no runbook question tells apart.
    const active: ActiveSignal[] = [
      { signal: "kms.plugin.unhealthy", subject: "master-0/1", state: "critical", detail: "connect: connection refused" },
      { signal: "apiserver.kms-providers.failing", subject: "master-0", state: "critical", detail: "[-]kms-providers failed: reason withheld" },
    ];
    const ranked = rank(active);
    const u = ranked[0].undecided;
    expect(u, "the first two are too close to call").toBeDefined();
    expect(u!.options!.length).toBeGreaterThanOrEqual(2);
    const second = ranked.find((s) => s.id === u!.with)!;
    // Answer for the second: it comes first, and the pair's question is not offered again.
    const option = u!.options!.find((o) => o.leadsTo.includes(second.id) && !o.leadsTo.includes(ranked[0].id))!;
    expect(option, "an answer points to the second alone").toBeDefined();
    const answered = u!.runbook
      ? rank(active, { answers: [{ runbookId: u!.runbook.id, node: u!.runbook.node, answer: option.label, to: option.to }] })
      : rank(active, { choices: [{ question: u!.question, for: second.id, against: ranked[0].id }] });
    expect(answered[0].id).toBe(second.id);
    expect(answered[0].supports.join(" ")).toMatch(/the on-call answered/);
    if (answered[0].undecided) expect(answered[0].undecided.question === u!.question && answered[0].undecided.options).toBeFalsy();
  });
});
