import { describe, expect, it } from "vitest";
import { loadCatalog } from "@/lib/catalog/load";
import { parseFlowchart, serializeFlowchart, type Flowchart } from "./flowchart";

const withoutLines = (chart: Flowchart) => ({
  ...chart,
  nodes: chart.nodes.map((n) => ({ ...n, line: 0 })),
  edges: chart.edges.map((e) => ({ ...e, line: 0 })),
});

describe("flowchart parser", () => {
  it("reads nodes, shapes, labelled and unlabelled edges, and keeps style lines", () => {
    const { chart, issues } = parseFlowchart(
      [
        "graph TD",
        "A[Pod starts without the wrapper] --> B{Is cloudtaser.io/inject: true<br/>on the pod template?}",
        "B -->|No| B1[Add the annotation]",
        'B -->|Yes| C{"Kernel version < 5.8?"}',
        "C -- Yes --> C1[Upgrade]",
        "C -->|No| D[Check logs]",
        "%% a comment",
        "style B1 fill:#2d5016,color:#fff",
      ].join("\n"),
    );
    expect(issues).toEqual([]);
    expect(chart!.nodes.map((n) => [n.id, n.shape, n.line])).toEqual([
      ["A", "step", 2],
      ["B", "question", 2],
      ["B1", "step", 3],
      ["C", "question", 4],
      ["C1", "step", 5],
      ["D", "step", 6],
    ]);
    expect(chart!.nodes[1].label).toBe("Is cloudtaser.io/inject: true<br/>on the pod template?");
    expect(chart!.edges.map((e) => [e.from, e.to, e.label ?? null])).toEqual([
      ["A", "B", null],
      ["B", "B1", "No"],
      ["B", "C", "Yes"],
      ["C", "C1", "Yes"],
      ["C", "D", "No"],
    ]);
    expect(chart!.decorations).toEqual(["style B1 fill:#2d5016,color:#fff"]);
  });

  it("follows a chain of edges on one line", () => {
    const { chart } = parseFlowchart("graph LR\nA[a] --> B[b] --> C[c]");
    expect(chart!.edges.map((e) => `${e.from}>${e.to}`)).toEqual(["A>B", "B>C"]);
  });

  it("names the line of each error", () => {
    const { chart, issues } = parseFlowchart(
      ["graph TD", "A[start] --> B{Is it (really) up?}", "B -->|Yes| C[ok]", "B ==|No D[bad arrow]", "C --> E"].join("\n"),
    );
    expect(chart).toBeUndefined();
    expect(issues).toEqual([
      { line: 2, message: 'node B: "(" inside a label needs the label quoted, like B["..."]' },
      { line: 4, message: 'expected an arrow "-->" at column 3, found "==|No D[bad "' },
      { line: 5, message: "node E is used in an edge but never given a label" },
    ]);
  });

  it("refuses a chart without a header or with a node defined twice differently", () => {
    expect(parseFlowchart("A[x] --> B[y]").issues[0]).toEqual({ line: 1, message: 'a flowchart starts with "graph TD" or "flowchart TD"' });
    expect(parseFlowchart("graph TD\nA[x] --> B[y]\nB[z] --> C[w]").issues[0].message).toBe("node B is defined twice with different text (first at line 2)");
  });

  it("round-trips every runbook of the catalog: parse, write, parse again gives the same graph", () => {
    const { runbooks } = loadCatalog();
    expect(runbooks.length).toBeGreaterThanOrEqual(14);
    for (const runbook of runbooks) {
      const again = parseFlowchart(serializeFlowchart(runbook.chart));
      expect(again.issues, runbook.id).toEqual([]);
      expect(withoutLines(again.chart!), runbook.id).toEqual(withoutLines(runbook.chart));
    }
  });
});
