import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { sameOrigin } from "./helpers";
import { openPage, pageRoutes, sealedIncident } from "./page-routes";

// axe-core (npm) on every page route of the app, on a desktop and on a phone, with OpenBao sealed on the demo
// cluster so the incident page has suspects: no serious and no critical violation anywhere. Experimental rules run
// too (label-content-name-mismatch is one: a diagram node's name must say what its text says). The counts per page
// go to the log and to test-results/accessibility.json.

const AXE = readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8");
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const IMPACTS = ["critical", "serious", "moderate", "minor"] as const;
type Impact = (typeof IMPACTS)[number];

interface Violation {
  id: string;
  impact: Impact;
  help: string;
  targets: string[];
}

test.afterAll(async ({ request }) => {
  await request.delete("/api/v1/demo/scenarios/openbao-sealed", sameOrigin());
});

/** The violations axe finds on the page as it stands, one per rule with the elements it names. */
async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the browser's debugger protocol, so the page's own CSP (nonce scripts only) stays as served.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const experimental = Object.fromEntries(axe.getRules(["experimental"]).map((r) => [r.ruleId, { enabled: true }]));
    const results = await axe.run(document, { rules: experimental, resultTypes: ["violations"] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: (v.impact ?? "minor") as Impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
}

/** Elements with a violation of each impact. */
const countByImpact = (violations: Violation[]) =>
  Object.fromEntries(IMPACTS.map((impact) => [impact, violations.filter((v) => v.impact === impact).reduce((n, v) => n + v.targets.length, 0)])) as Record<
    Impact,
    number
  >;

test("every page route has no serious or critical axe-core violation, on a desktop and on a phone", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const incident = await sealedIncident(request);
  const routes = await pageRoutes(request, incident);
  expect(routes.map((r) => r.pattern)).toEqual(expect.arrayContaining(["/", "/incidents/[id]", "/health", "/fleet", "/clusters/[name]", "/runbooks/[id]"]));
  const report: Record<string, Record<string, { counts: Record<Impact, number>; violations: Violation[] }>> = {};
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    for (const route of routes) {
      await openPage(page, route);
      const violations = await axeViolations(page);
      (report[route.pattern] ??= {})[name] = { counts: countByImpact(violations), violations };
    }
    await context.close();
  }
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/accessibility.json", `${JSON.stringify({ incident: incident.id, pages: report }, null, 2)}\n`);
  console.log("axe-core elements with violations, desktop | phone (critical/serious/moderate/minor):");
  for (const route of routes) {
    const line = Object.keys(VIEWPORTS)
      .map((v) => IMPACTS.map((i) => report[route.pattern][v].counts[i]).join("/"))
      .join(" | ");
    console.log(`  ${route.pattern.padEnd(28)} ${line}`);
  }
  for (const route of routes) {
    for (const viewport of Object.keys(VIEWPORTS)) {
      const blocking = report[route.pattern][viewport].violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect
        .soft(
          blocking.map(
            (v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.slice(0, 3).join(", ")}${v.targets.length > 3 ? ` and ${v.targets.length - 3} more` : ""}`,
          ),
          `${route.path} on a ${viewport}`,
        )
        .toEqual([]);
    }
  }
});
