import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

interface ApiRunbook {
  id: string;
  flowchart: string;
  nodes: { id: string; label: string; kind: string }[];
  edges: { from: string; to: string; label?: string }[];
}

/** The part of the page's global `mermaid` (mermaid.min.js) this test reads: the flowchart's own graph. */
interface FlowchartMermaid {
  initialize: (c: object) => void;
  mermaidAPI: {
    getDiagramFromText: (t: string) => Promise<{
      db: {
        getVertices: () => Map<string, { id: string; type: string; text: string }>;
        getEdges: () => { start: string; end: string; text: string }[];
      };
    }>;
  };
}

// Mermaid keeps labels HTML-escaped; Faultline's labels are plain text.
const plain = (text: string) =>
  text
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

test("Mermaid's own parser reads every runbook as the same graph Faultline's parser does", async ({ page, request }) => {
  const { runbooks } = await (await request.get("/api/v1/runbooks")).json();
  await page.setContent("<!doctype html><html><body></body></html>");
  await page.addScriptTag({ path: path.join(process.cwd(), "node_modules/mermaid/dist/mermaid.min.js") });
  for (const { id } of runbooks as { id: string }[]) {
    const runbook = (await (await request.get(`/api/v1/runbooks/${id}`)).json()) as ApiRunbook;
    const mermaid = await page.evaluate(async (text) => {
      const w: Window & { mermaid?: FlowchartMermaid } = window;
      const m = w.mermaid!;
      m.initialize({ startOnLoad: false, securityLevel: "strict" });
      const diagram = await m.mermaidAPI.getDiagramFromText(text);
      return {
        vertices: [...diagram.db.getVertices().values()].map((v) => ({ id: v.id, type: v.type, text: v.text })),
        edges: diagram.db.getEdges().map((e) => ({ from: e.start, to: e.end, label: e.text })),
      };
    }, runbook.flowchart);
    expect(mermaid.vertices.map((v) => v.id).sort(), id).toEqual(runbook.nodes.map((n) => n.id).sort());
    for (const vertex of mermaid.vertices) {
      const node = runbook.nodes.find((n) => n.id === vertex.id)!;
      expect(vertex.type === "diamond" ? "question" : "other", `${id} ${vertex.id}`).toBe(node.kind === "question" ? "question" : "other");
      expect(plain(vertex.text), `${id} ${vertex.id}`).toBe(node.label);
    }
    const key = (e: { from: string; to: string; label?: string }) => `${e.from}>${e.to}:${e.label ?? ""}`;
    expect(mermaid.edges.map(key).sort(), id).toEqual(runbook.edges.map(key).sort());
  }
});

test("Mermaid is not shipped to any page: diagrams arrive pre-rendered", async ({ page }) => {
  const shipped: string[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.text().catch(() => "");
    if (body.includes("getDiagramFromText")) shipped.push(`${page.url()} <- ${response.url()}`);
  });
  for (const url of ["/", "/catalog", "/catalog/openbao-sealed", "/blast-radius", "/blast-radius/webhook", "/runbooks", "/runbooks/kms-apiserver-wont-start"]) {
    await page.goto(url, { waitUntil: "networkidle" });
  }
  expect(shipped).toEqual([]);
});

test("measure: the largest runbook becomes interactive, and guided steps move, quickly", async ({ page, request }) => {
  const { runbooks } = await (await request.get("/api/v1/runbooks")).json();
  const largest = (runbooks as { id: string; steps: number }[]).sort((a, b) => b.steps - a.steps)[0];
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(`/runbooks/${largest.id}`);
    await page.waitForFunction(() => document.documentElement.dataset.runbookInteractive !== undefined);
    samples.push(Number(await page.evaluate(() => document.documentElement.dataset.runbookInteractive)));
  }
  // Input-to-next-paint of real clicks on the answer buttons (the Event Timing API, as INP measures it).
  await page.evaluate(() => {
    const store: number[] = [];
    const w: Window & { __eventTimings?: number[] } = window;
    w.__eventTimings = store;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === "click") store.push(entry.duration);
    }).observe({ type: "event", durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
  const label = page.getByTestId("current-label");
  for (let i = 0; i < 8; i++) {
    const button = page.getByRole("group", { name: "Answers" }).getByRole("button").first();
    if ((await button.count()) === 0) break;
    const before = await label.textContent();
    await button.click();
    await expect(label).not.toHaveText(before!);
    await page.waitForTimeout(100);
  }
  const steps = await page.evaluate(() => {
    const w: Window & { __eventTimings?: number[] } = window;
    return w.__eventTimings!;
  });
  const result = { runbook: largest.id, nodes: largest.steps, interactiveMs: samples, stepMs: steps.map((t) => Math.round(t * 10) / 10) };
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/runbook-perf.json", JSON.stringify(result, null, 2));
  console.log(`runbook ${largest.id} (${largest.steps} nodes): interactive at ${samples.join(", ")} ms; guided step ${result.stepMs.join(", ")} ms`);
  expect(steps.length).toBeGreaterThan(0);
});
