import { describe, expect, it } from "vitest";
import { parseFlowchart } from "./flowchart";
import { checkTree } from "./tree";

function check(text: string, kinds: Record<string, string> = {}) {
  const { chart, issues } = parseFlowchart(text);
  expect(issues).toEqual([]);
  return checkTree({ chart: chart!, leafKinds: new Map(Object.entries(kinds)) }).map((i) => `${i.line}: ${i.message}`);
}

describe("decision-tree rules", () => {
  it("accepts a well-formed tree", () => {
    expect(check("graph TD\nA[s] --> B{q?}\nB -->|Yes| C[fix]\nB -->|No| D[other]", { C: "action", D: "diagnosis" })).toEqual([]);
  });

  it("rejects a cycle", () => {
    const errors = check("graph TD\nA[s] --> B{q?}\nB -->|Yes| C[fix]\nB -->|No| D[again]\nD --> B", { C: "action" });
    expect(errors).toContain("5: cycle: D --> B leads back to a step already on the path");
  });

  it("rejects a question whose answers are not labelled", () => {
    const errors = check("graph TD\nA[s] --> B{q?}\nB --> C[fix]\nB -->|No| D[other]", { C: "action", D: "action" });
    expect(errors).toEqual(["3: answer B --> C of question B has no label; write B -->|Yes| C"]);
  });

  it("rejects a question with one way on, a branching step and a repeated answer", () => {
    expect(check("graph TD\nA[s] --> B{Check logs}\nB --> C[fix]", { C: "action" })).toContain(
      "2: question B needs at least two answers; a step with one way on is written B[...]",
    );
    expect(check("graph TD\nA[s] --> B[x]\nA --> C[y]", { B: "action", C: "action" })).toContain(
      "2: step A has 2 ways on; a branching step must be a question A{...} with labelled answers",
    );
    expect(check("graph TD\nA{q} -->|Yes| B[x]\nA -->|yes| C[y]", { B: "action", C: "action" })).toContain('3: question A has the answer "yes" twice');
  });

  it("rejects an unreachable node and a leaf that is neither an action nor a diagnosis", () => {
    const errors = check("graph TD\nA[s] --> B[end]\nX[orphan] --> Y[lost]", { Y: "action" });
    expect(errors).toContain("3: node X is unreachable: nothing leads to it (the start node is A)");
    expect(errors).toContain("2: leaf B must be an action or a diagnosis: add steps.B.kind: action | diagnosis");
  });
});
