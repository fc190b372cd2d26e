import { describe, expect, it } from "vitest";
import type { RunbookNode } from "@/lib/runbooks/schema";
import { loadCatalog } from "./load";
import { firstRecoveryStep } from "./recovery";

// The first recovery step an incident's first screen shows for its top suspect.

const node = (id: string, kind: RunbookNode["kind"], next: string[], extra: Partial<RunbookNode> = {}): RunbookNode => ({
  id,
  kind,
  label: `step ${id}`,
  commands: [],
  catalog: [],
  runbooks: [],
  next: next.map((to, i) => ({ label: i === 0 ? "Yes" : "No", to })),
  ...extra,
});

describe("firstRecoveryStep", () => {
  const catalog = loadCatalog();

  it("gives a sealed OpenBao the runbook step that unseals it, with its command and the path that opens it", () => {
    const sealed = catalog.entries.find((e) => e.id === "openbao-sealed")!;
    const step = firstRecoveryStep({ id: sealed.id, recovery: sealed.kind === "failure-mode" ? sealed.recovery : "" }, catalog.runbooks);
    expect(step).toMatchObject({
      title: "Unseal OpenBao",
      command: { command: "bao operator unseal" },
      href: "/runbooks/openbao-sealed-or-unreachable?path=A.B.G.H.H1",
      where: "OpenBao sealed, unreachable or failing over, step H1",
    });
  });

  it("prefers a fix to a conclusion, and of two fixes the one reached in fewer steps", () => {
    const tree = {
      id: "t",
      title: "T",
      root: "A",
      nodes: [
        node("A", "question", ["B", "D1"]),
        node("D1", "diagnosis", [], { catalog: ["m"] }),
        node("B", "question", ["C", "B1"]),
        node("C", "step", ["B2"]),
        node("B2", "action", [], { catalog: ["m"] }),
        node("B1", "action", [], { commands: [{ command: "systemctl restart x", label: "Restart" }], catalog: ["m"] }),
      ],
    };
    const step = firstRecoveryStep({ id: "m", recovery: "Fix m." }, [tree]);
    expect(step).toMatchObject({ title: "step B1", command: { command: "systemctl restart x", label: "Restart" }, href: "/runbooks/t?path=A.B.B1", where: "T, step B1" });
  });

  it("shows a fix that has no command as text only", () => {
    const tree = { id: "t", title: "T", root: "A", nodes: [node("A", "question", ["A1", "A2"]), node("A1", "action", [], { text: "Fix the DNS record.", catalog: ["m"] }), node("A2", "action", [])] };
    const step = firstRecoveryStep({ id: "m", recovery: "Fix m." }, [tree]);
    expect(step).toMatchObject({ title: "step A1", text: "Fix the DNS record." });
    expect(step.command).toBeUndefined();
  });

  it("falls back to the catalog entry's recovery text, with no command, for a failure mode no runbook names", () => {
    const named = new Set(catalog.runbooks.flatMap((r) => r.nodes.flatMap((n) => n.catalog)));
    const unnamed = catalog.entries.filter((e) => e.kind === "failure-mode" && !named.has(e.id));
    expect(unnamed.length).toBeGreaterThan(0);
    for (const entry of unnamed) {
      if (entry.kind !== "failure-mode") continue;
      expect(firstRecoveryStep(entry, catalog.runbooks)).toEqual({ title: entry.recovery, href: `/catalog/${entry.id}`, where: "the catalog entry" });
    }
  });
});
