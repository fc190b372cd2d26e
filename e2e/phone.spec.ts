import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { answersTo, sameOrigin } from "./helpers";
import { openPage, openSealedIncident, pageRoutes, sealedIncident } from "./page-routes";

// The on-call's phone: Chromium at 390 x 844, with OpenBao sealed on the demo cluster so the incident page has
// suspects and a recovery to show.

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, hasTouch: true });

test.afterAll(async ({ request }) => {
  await request.delete("/api/v1/demo/scenarios/openbao-sealed", sameOrigin());
});

test("an incident's first screen on a phone says what to do now: the top suspect, its first recovery step to copy, Acknowledge", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000);
  const incident = await openSealedIncident(request);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/incidents/${incident.id}`);
  const now = page.getByTestId("what-now");
  // All of it on the first screen, without scrolling.
  await expect(now).toBeVisible();
  expect((await now.boundingBox())!.y + (await now.boundingBox())!.height).toBeLessThanOrEqual(PHONE.height);
  await expect(now.getByRole("heading", { name: /^What now open$/ })).toBeVisible();
  const suspect = now.getByTestId("what-now-suspect");
  await expect(suspect.getByRole("link", { name: "OpenBao sealed" })).toHaveAttribute("href", "/catalog/openbao-sealed");
  await expect(suspect).toContainText(/(very likely|likely) · (>99|\d{2})%/);
  const step = now.getByTestId("what-now-step");
  await expect(step).toContainText("First step: Unseal OpenBao");
  await expect(step.getByRole("link", { name: "The whole step" })).toHaveAttribute("href", "/runbooks/openbao-sealed-or-unreachable?path=A.B.G.H.H1");
  await step.getByRole("button", { name: "Copy: bao operator unseal" }).tap();
  await expect(step.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("bao operator unseal");
  await page.screenshot({ path: "test-results/screenshots/phone-incident-what-now.png" });

  await now.getByRole("button", { name: "Acknowledge" }).tap();
  await expect(page.getByTestId("incident-status")).toHaveText("acknowledged");
  await expect(now.getByRole("heading", { name: /^What now acknowledged$/ })).toBeVisible();
  await expect(now.getByRole("button", { name: "Acknowledge (acknowledged)" })).toBeDisabled();
  await expect(page.getByTestId("incident-header")).toContainText("by local");
});

test("the nav folds behind a Menu button that a thumb or a keyboard opens; a desktop shows the links", async ({ page }) => {
  await page.goto("/health");
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = nav.getByRole("button", { name: "Menu" });
  const incidents = nav.getByRole("link", { name: "Incidents", exact: true });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(incidents).toBeHidden();

  await page.keyboard.press("Tab"); // the brand
  await page.keyboard.press("Tab");
  await expect(menu).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(incidents).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Catalog", exact: true })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await expect(incidents).toBeHidden();

  await menu.tap();
  await expect(incidents).toBeVisible();
  await incidents.tap();
  await expect(page).toHaveURL(/\/incidents$/);
  // The new page starts with its content: the menu closed behind the followed link.
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(incidents).toBeHidden();

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(incidents).toBeVisible();
});

test("a runbook is walked by touch on a phone: the step first, answers tapped, a tapped diagram node read in view", async ({ page, request }) => {
  const answers = await answersTo(request, "openbao-sealed-or-unreachable", "H1");
  await page.goto("/runbooks/openbao-sealed-or-unreachable");
  await page.waitForFunction(() => document.documentElement.dataset.runbookInteractive !== undefined);
  const label = page.getByTestId("current-label");
  // The walk comes before the diagram, on the first screen.
  await expect(label).toBeInViewport();
  const group = page.getByRole("group", { name: "Answers" });
  for (const answer of answers) {
    const before = await label.textContent();
    const button = answer ? group.getByRole("button", { name: new RegExp(`^\\S+ ${answer}( \\(live data\\))?$`) }) : group.getByRole("button").first();
    await button.tap();
    await expect(label).not.toHaveText(before!);
  }
  await expect(label).toHaveText("Unseal OpenBao");
  await expect(page.getByTestId("current-step")).toContainText("bao operator unseal");
  await expect(page).toHaveURL(/\?path=A\.B\.G\.H\.H1$/);

  const node = page.locator('g.node[data-node="C1"]');
  await node.scrollIntoViewIfNeeded();
  await node.tap();
  const inspected = page.getByTestId("inspected-step");
  await expect(inspected).toContainText("Renew the certificate");
  await expect(inspected).toBeInViewport();
  await inspected.getByRole("button", { name: "Close step (Escape)" }).tap();
  await expect(inspected).toHaveCount(0);
  await expect(label).toHaveText("Unseal OpenBao");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
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
