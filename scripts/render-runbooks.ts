// npm run runbooks:render: draws every runbook's flowchart, and the blast-radius dependency diagram,
// with Mermaid (securityLevel strict) in Debian's Chromium into catalog/runbooks/rendered/<id>.svg.
// Re-run after editing a flowchart or a dependsOn; a test fails while any rendering is out of date.
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import type { Mermaid } from "mermaid";
import { dependencyFlowchart, DEPENDENCY_DIAGRAM_ID } from "../lib/catalog/dependency-diagram";
import { loadCatalog } from "../lib/catalog/load";
import { RENDER_DIR, RENDER_ID, stampFor } from "../lib/runbooks/rendered";

const only = process.argv.slice(2);
const mermaidVersion = JSON.parse(readFileSync("node_modules/mermaid/package.json", "utf8")).version as string;
const catalog = loadCatalog();
const diagrams = [
  ...catalog.runbooks.map((r) => ({ id: r.id, flowchart: r.flowchart })),
  { id: DEPENDENCY_DIAGRAM_ID, flowchart: dependencyFlowchart(catalog.blastRadius, catalog.components) },
];

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ path: "node_modules/mermaid/dist/mermaid.min.js" });
    await page.evaluate(() => {
      const w: Window & { mermaid?: Mermaid } = window;
      w.mermaid!.initialize({
        startOnLoad: false,
        securityLevel: "strict",
        theme: "dark",
        fontFamily: "system-ui, DejaVu Sans, sans-serif",
        // Plain SVG text labels: cheaper for the browser to restyle on every guided step than HTML ones.
        htmlLabels: false,
        flowchart: { htmlLabels: false, curve: "basis", useMaxWidth: true },
      });
    });
    mkdirSync(RENDER_DIR, { recursive: true });
    let written = 0;
    for (const diagram of diagrams) {
      if (only.length && !only.includes(diagram.id)) continue;
      const file = path.join(RENDER_DIR, `${diagram.id}.svg`);
      if (!only.length && existsSync(file) && readFileSync(file, "utf8").startsWith(stampFor(diagram.flowchart, mermaidVersion))) continue;
      const svg = await page.evaluate(
        async ({ id, text }) => {
          const w: Window & { mermaid?: Mermaid } = window;
          return (await w.mermaid!.render(id, text)).svg;
        },
        { id: RENDER_ID, text: diagram.flowchart },
      );
      writeFileSync(file, `${stampFor(diagram.flowchart, mermaidVersion)}\n${svg}\n`);
      written++;
      console.log(`rendered ${diagram.id}`);
    }
    // Drop renderings of diagrams that no longer exist.
    const ids = new Set(diagrams.map((r) => `${r.id}.svg`));
    for (const name of readdirSync(RENDER_DIR)) if (!ids.has(name)) rmSync(path.join(RENDER_DIR, name));
    console.log(`${written} rendered, ${diagrams.length - written} already current`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(`runbooks:render failed: ${(error as Error).message}`);
  process.exit(1);
});
