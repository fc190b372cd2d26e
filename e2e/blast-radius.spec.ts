import { expect, test } from "@playwright/test";
import { shot } from "./helpers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("a reviewer compares the webhook under Ignore and Fail, follows a row to the catalog and on to a runbook", async ({ page }) => {
  await page.goto("/blast-radius");
  await expect(page.getByTestId("if-it-breaks")).toContainText("Mutating webhook");
  await expect(page.getByTestId("dependency-diagram").locator("svg")).toBeVisible();
  // A component on the diagram opens its page; one without a page is not a link.
  await expect(page.getByRole("link", { name: "Blast radius of wrapper" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Blast radius of identity" })).toHaveCount(0);
  await shot(page, "20-blast-radius");
  await page.getByTestId("if-it-breaks").getByRole("link", { name: "Mutating webhook" }).click();
  await expect(page).toHaveURL(/\/blast-radius\/webhook$/);
  await expect(page.getByTestId("key-property")).toBeVisible();

  const matrix = page.getByTestId("matrix").first();
  const ignore = matrix.getByRole("row", { name: /^Ignore/ });
  const fail = matrix.getByRole("row", { name: /^Fail/ });
  await expect(ignore).toContainText(/without injection/i);
  await expect(fail).toContainText(/blocked/i);
  await shot(page, "21-blast-radius-webhook");

  await ignore
    .getByRole("link", { name: /unreachable.*Ignore|Ignore/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/catalog\/webhook-unreachable-ignore$/);
  await expect(page.getByTestId("entry-blast-radius")).toContainText("Mutating webhook");
  await page.getByTestId("entry-runbooks").getByRole("link", { name: "Sidecar not injected" }).first().click();
  await expect(page).toHaveURL(/\/runbooks\/sidecar-not-injected\?path=/);
  await expect(page.getByTestId("current-step").getByRole("link", { name: /Webhook unreachable/i })).toBeVisible();
});

test("Enter on a component of the dependency diagram opens its page", async ({ page }) => {
  await page.goto("/blast-radius");
  await page.getByRole("link", { name: "Blast radius of openbao" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/blast-radius\/openbao$/);
});

test("the backout procedure lists its commands in order and copies one", async ({ page }) => {
  await page.goto("/blast-radius/backout");
  const first = page.locator(".command").first();
  await expect(first).toContainText("helm uninstall cloudtaser -n cloudtaser-system");
  await first.getByRole("button", { name: /Copy/ }).click();
  await expect(first.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("helm uninstall cloudtaser -n cloudtaser-system");
  await expect(page.getByText(/re-?enabl/i).first()).toBeVisible();
  await shot(page, "22-blast-radius-backout");
});

test("the KMS plugin page summarises start-up blocks and data-loss risk from the catalog", async ({ page, request }) => {
  await page.goto("/blast-radius/kms-plugin");
  const summary = page.getByTestId("kms-summary");
  await expect(summary.getByRole("link", { name: "Transit key deleted" }).first()).toBeVisible();
  const api = await (await request.get("/api/v1/blast-radius/kms-plugin")).json();
  const startup = await (
    await request.get(
      "/api/v1/catalog?startup=yes&category=kms-bootstrap-runtime,openbao-transit,transit-key-material,auth-issuer,kms-contract-registry,encryption-scope-migration",
    )
  ).json();
  expect(api.summary.blocksStartup.sort()).toEqual(startup.entries.map((e: { id: string }) => e.id).sort());
});

test("the blast-radius API and its 404", async ({ request }) => {
  const list = await (await request.get("/api/v1/blast-radius")).json();
  expect(list.pages.map((p: { id: string }) => p.id)).toContain("webhook");
  const missing = await request.get("/api/v1/blast-radius/toaster");
  expect(missing.status()).toBe(404);
});
