import { describe, expect, it } from "vitest";
import { getCatalog } from "@/lib/catalog/queries";
import type { Signal } from "@/lib/signals/signal-model";
import { nodeMap } from "@/lib/runbooks/walk";
import { suggestAnswer, suggestRunbooks } from "./suggest";

// Pre-answers from live data on the real runbooks: the answer a firing signal gives is drawn first.

const runbook = (id: string) => getCatalog().runbooks.find((r) => r.id === id)!;
const node = (rb: string, id: string) => nodeMap(runbook(rb)).get(id)!;
const sig = (id: Signal["id"], state: Signal["state"], subject = "openbao"): Signal => ({
  id,
  subject,
  state,
  detail: `${id} is ${state}`,
  evidence: { code: 503 },
});

describe("suggested answers", () => {
  it("answers questions of either polarity from the firing signal", () => {
    expect(suggestAnswer(node("openbao-sealed-or-unreachable", "B"), [sig("openbao.unreachable", "critical")])).toMatchObject({
      answer: "No",
      state: "critical",
      evidence: [{ subject: "openbao", detail: "openbao.unreachable is critical" }],
    });
    expect(suggestAnswer(node("openbao-sealed-or-unreachable", "B"), [sig("openbao.unreachable", "ok")])).toMatchObject({ answer: "Yes", state: "ok" });
    expect(suggestAnswer(node("openbao-sealed-or-unreachable", "G"), [sig("openbao.sealed", "critical")])).toMatchObject({ answer: "Yes" });
    expect(suggestAnswer(node("sidecar-not-injected", "D"), [sig("webhook.missing", "critical", "cluster")])).toMatchObject({ answer: "No" });
  });

  it("suggests nothing when the signal is unknown, absent, or the step is not a question", () => {
    expect(suggestAnswer(node("openbao-sealed-or-unreachable", "G"), [sig("openbao.sealed", "unknown")])).toBeUndefined();
    expect(suggestAnswer(node("openbao-sealed-or-unreachable", "G"), [])).toBeUndefined();
    expect(suggestAnswer(node("openbao-sealed-or-unreachable", "A"), [sig("kms.plugin.unhealthy", "critical", "master-0/1")])).toBeUndefined();
  });

  it("offers first the runbook that reaches the top suspect", () => {
    const ranked = suggestRunbooks(getCatalog().runbooks, [{ id: "openbao-sealed" }], ["openbao.sealed"]);
    expect(ranked[0].id).toBe("openbao-sealed-or-unreachable");
    // What a sealed OpenBao raises on the demo cluster: every plugin fails too. OpenBao's own, more specific
    // tree still comes before "API server will not start", which asks about more of those signals.
    const all = ["openbao.sealed", "kms.plugin.unhealthy", "apiserver.kms-providers.failing", "kms.decrypt.errors"];
    expect(suggestRunbooks(getCatalog().runbooks, [{ id: "openbao-sealed" }, { id: "kms-plugin-unavailable" }], all)[0].id).toBe(
      "openbao-sealed-or-unreachable",
    );
    expect(suggestRunbooks(getCatalog().runbooks, [], [])).toEqual([]);
  });
});
