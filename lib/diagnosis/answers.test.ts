import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import type { FailureMode } from "@/lib/catalog/schema";
import { readAnswers, type RunbookAnswer } from "./answers";
import { diagnose, type ActiveSignal } from "./rank";

// A runbook answer as evidence, against the real catalog's runbooks: what the on-call answered moves the causes its
// branch leads to up and the ones only the other branches lead to down.

const catalog = getCatalog();
const modes = catalog.entries.filter((e): e is FailureMode => e.kind === "failure-mode");
const isMode = (id: string) => modes.some((m) => m.id === id);
const rank = (active: ActiveSignal[], answers: RunbookAnswer[] = []) =>
  diagnose({ active, answers, modes, classes: catalog.errorClasses, runbooks: catalog.runbooks });
const bao = (node: string, answer: string, to?: string): RunbookAnswer => ({ runbookId: "openbao-sealed-or-unreachable", node, answer, to });
// What kube-apiserver's redacted check says of any plugin failure: no cause in it.
const redacted: ActiveSignal = {
  signal: "kms.plugin.unhealthy",
  subject: "master-0/1",
  state: "critical",
  detail: "master-0: keyID 1 error: rpc error: code = Unknown desc = kms provider is not healthy",
};

describe("runbook answers as evidence", () => {
  it("reads an answer as the causes its branch leads to and those only the others lead to", () => {
    const [sealed] = readAnswers(catalog.runbooks, [bao("G", "Yes")], isMode);
    expect(sealed.said).toBe("the on-call answered 'Does it answer 503 sealed?' yes");
    expect(sealed.leadsTo.sort()).toEqual(["openbao-sealed", "transit-key-backup-missing"]);
    expect(sealed.leadsAway).toEqual(expect.arrayContaining(["openbao-leader-failover", "openbao-audit-backend-pressure", "apiserver-decrypt-storm"]));
    expect(sealed.leadsAway).not.toContain("openbao-sealed");
    const [down] = readAnswers(catalog.runbooks, [bao("B", "No")], isMode);
    expect(down.leadsTo).toEqual(expect.arrayContaining(["openbao-unavailable", "openbao-tls-certificate-expired"]));
    expect(down.leadsAway).toContain("openbao-sealed");
  });

  it("keeps the latest answer to a question, follows the recorded branch, and ignores what no longer reads", () => {
    const read = readAnswers(catalog.runbooks, [bao("G", "Yes"), bao("G", "No"), bao("A", "next"), bao("nope", "Yes"), bao("G", "Maybe")], isMode);
    expect(read).toHaveLength(0); // "Maybe" is no branch of G: the walk's last word on G says nothing
    const [renamed] = readAnswers(catalog.runbooks, [bao("G", "Oui", "H")], isMode);
    expect(renamed.leadsTo).toContain("openbao-sealed");
    expect(readAnswers(catalog.runbooks, [{ runbookId: "gone", node: "G", answer: "Yes" }], isMode)).toEqual([]);
  });

  it("moves a sealed OpenBao to the top when the on-call says OpenBao answers 503 sealed, and away when it does not", () => {
    const before = rank([redacted]);
    expect(before[0].id).not.toBe("openbao-sealed");
    const yes = rank([redacted], [bao("B", "Yes"), bao("G", "Yes")]);
    expect(yes[0].id).toBe("openbao-sealed");
    expect(yes[0].supports).toContain("the on-call answered 'Does it answer 503 sealed?' yes");
    const no = rank([redacted], [bao("B", "Yes"), bao("G", "No"), bao("I", "No"), bao("J", "Yes")]);
    expect(no[0].id).toBe("openbao-leader-failover");
    const sealed = rank([redacted, { signal: "openbao.sealed", subject: "openbao", state: "critical" }], [bao("G", "No")]);
    expect(sealed.find((s) => s.id === "openbao-sealed")?.contradicts).toContain(
      "the on-call answered 'Does it answer 503 sealed?' no; only another answer leads to it",
    );
  });

  it("shares an answer's weight among the causes its branch leads to, and names no suspect from a vague one", () => {
    // "OpenBao answers" leads to most of the tree: it makes none of those a suspect on its own.
    const vague = rank([], [bao("B", "Yes")]);
    expect(vague).toEqual([]);
    const narrow = rank([], [bao("J", "Yes")]);
    expect(narrow.map((s) => s.id)).toEqual(["openbao-leader-failover"]);
    expect(narrow[0].score).toBeCloseTo(4, 1);
  });

  it("does not ask again the question the on-call answered when two causes stay close", () => {
    const slow: ActiveSignal[] = [
      { signal: "kms.latency.high", subject: "master-0", state: "critical", detail: "p99 2.3s" },
      { ...redacted, detail: "rpc error: code = DeadlineExceeded desc = context deadline exceeded" },
    ];
    const asked = rank(slow)[0].undecided!;
    expect(asked.runbook?.node).toBeDefined();
    const answered = rank(slow, [{ runbookId: asked.runbook!.id, node: asked.runbook!.node, answer: "Yes" }]);
    expect(answered[0].undecided?.runbook?.node).not.toBe(asked.runbook!.node);
    expect(answered[0].supports.some((s) => s.startsWith("the on-call answered"))).toBe(true);
  });
});
