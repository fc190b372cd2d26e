import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { sameOrigin } from "./helpers";
import { openPage, pageRoutes, sealedIncident } from "./page-routes";

// The on-call's phone: Chromium at 390 x 844, with OpenBao sealed on the demo cluster so the incident page has
// suspects and a recovery to show.

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

test.afterAll(async ({ request }) => {
  await request.delete("/api/v1/demo/scenarios/openbao-sealed", sameOrigin());
});

test("every page route fits a phone's width: nothing scrolls sideways", async ({ page, request }) => {
  test.setTimeout(120_000);
  const incident = await sealedIncident(request);
  const routes = await pageRoutes(request, incident);
  const widths: Record<string, number> = {};
  mkdirSync("test-results/screenshots", { recursive: true });
  for (const route of routes) {
    await openPage(page, route);
    widths[route.pattern] = await page.evaluate(() => document.documentElement.scrollWidth);
    if (["/incidents/[id]", "/health", "/runbooks/[id]"].includes(route.pattern)) {
      const name = route.pattern.split("/")[1];
      await page.screenshot({ path: `test-results/screenshots/phone-${name}-first-screen.png` });
      await page.screenshot({ path: `test-results/screenshots/phone-${name}.png`, fullPage: true });
    }
  }
  writeFileSync("test-results/phone.json", `${JSON.stringify({ viewport: PHONE, incident: incident.id, scrollWidth: widths }, null, 2)}\n`);
  console.log(`scrollWidth at ${PHONE.width} px: ${routes.map((r) => `${r.pattern} ${widths[r.pattern]}`).join(", ")}`);
  for (const route of routes) expect.soft(widths[route.pattern], `${route.path} is wider than the phone`).toBeLessThanOrEqual(PHONE.width);
});
