import { expect, test, type Page } from "@playwright/test";

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });

test("a new user finds a JWKS failure mode from the home page and shares its link", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Faultline", level: 1 })).toBeVisible();
  await expect(page.getByTestId("counts")).toContainText("69failure modes");
  await shot(page, "01-home");

  await page.getByRole("link", { name: "Catalog", exact: true }).click();
  await expect(page).toHaveURL(/\/catalog$/);
  await expect(page.getByTestId("result-count")).toHaveText("78 of 78 entries");

  await page.getByLabel("Blocks start-up").selectOption("yes");
  await page.getByLabel("Data-loss risk").selectOption("yes");
  await expect(page).toHaveURL(/\/catalog\?startup=yes&dataLoss=yes$/);
  const rows = page.locator("tbody tr");
  await expect(page.getByTestId("result-count")).toHaveText("3 of 78 entries");
  for (const row of await rows.all()) {
    await expect(row.locator("td").nth(3)).toHaveText("Yes");
    await expect(row.locator("td").nth(4)).toHaveText("Yes");
  }
  await expect(rows.first()).toContainText("Transit key deleted");
  await shot(page, "02-catalog-startup-and-data-loss");

  await page.getByLabel("Search the catalog").fill("JWKS");
  await expect(page).toHaveURL(/q=JWKS/);
  // No JWKS failure mode risks data, so the page says how many match without the filters.
  await expect(page.getByTestId("empty-state")).toContainText("2 entries match “JWKS” without the filters");
  await shot(page, "03-catalog-jwks-filtered-empty");
  await page.getByRole("button", { name: "Keep the search, clear the filters" }).click();
  await expect(page).toHaveURL(/\/catalog\?q=JWKS$/);
  await expect(page.getByTestId("result-count")).toContainText("2 of 78 entries matching “JWKS”");
  await shot(page, "04-catalog-jwks");

  await page.getByRole("link", { name: "JWKS rotated" }).click();
  await expect(page).toHaveURL(/\/catalog\/jwks-rotated$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("JWKS rotated");
  await expect(page.getByTestId("severity-flags")).toContainText("Blocks API-server start-up");
  await expect(page.getByTestId("severity-flags")).toContainText("No data loss");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("JWKS rotated");
  await expect(page.getByText("How to recover")).toBeVisible();
  await shot(page, "05-entry-jwks-rotated");
});

test("a shared catalog view reloads with the same filters, search and sort", async ({ page }) => {
  await page.goto("/catalog?q=openbao&kind=failure-mode&sort=startup&dir=asc");
  await expect(page.getByLabel("Search the catalog")).toHaveValue("openbao");
  await expect(page.getByLabel("Kind")).toHaveValue("failure-mode");
  await expect(page.getByRole("columnheader", { name: /Start-up block/ })).toHaveAttribute("aria-sort", "ascending");
  const count = await page.getByTestId("result-count").textContent();
  await page.reload();
  await expect(page.getByTestId("result-count")).toHaveText(count!);
  await expect(page.locator("tbody tr").first().locator("td").nth(3)).toHaveText("Yes");
});

test("sorting by a column puts the most severe first and a second click reverses it", async ({ page }) => {
  await page.goto("/catalog?kind=failure-mode");
  const header = page.getByRole("columnheader", { name: /Data loss/ });
  await header.getByRole("button").click();
  await expect(page).toHaveURL(/sort=dataLoss&dir=asc/);
  await expect(page.locator("tbody tr").first().locator("td").nth(4)).toHaveText("Yes");
  await header.getByRole("button").click();
  await expect(page).toHaveURL(/sort=dataLoss&dir=desc/);
  await expect(page.locator("tbody tr").first().locator("td").nth(4)).toHaveText("No");
});

test("a link with filters Faultline does not know says so instead of hiding rows", async ({ page }) => {
  await page.goto("/catalog?startup=sometimes");
  await expect(page.getByTestId("query-errors")).toContainText("startup must be one of: yes, possible, affected-data, no");
  await expect(page.getByTestId("result-count")).toHaveText("78 of 78 entries");
});

test("an unknown entry id gets a helpful not-found page with status 404", async ({ page }) => {
  const response = await page.goto("/catalog/transit-key-deleeted");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("entry-not-found")).toContainText("No catalog entry “transit-key-deleeted”");
  await page.getByRole("link", { name: "Search the catalog for “transit key deleeted”" }).click();
  await expect(page.locator("tbody tr").first()).toContainText("Transit key deleted");
});

test("entries link to their related entries and back to filtered views", async ({ page }) => {
  await page.goto("/catalog/openbao-sealed");
  await page.getByTestId("related").getByRole("link", { name: "OpenBao unavailable" }).click();
  await expect(page).toHaveURL(/\/catalog\/openbao-unavailable$/);
  await page.getByRole("link", { name: "OpenBao and Transit" }).click();
  await expect(page).toHaveURL(/\/catalog\?category=openbao-transit$/);
  await expect(page.getByTestId("result-count")).toHaveText("7 of 78 entries");
});

test("an entry says how Faultline recognises it: the real error text that points there and what argues against it", async ({ page }) => {
  await page.goto("/catalog/kms-socket-permissions-wrong");
  const panel = page.getByTestId("entry-recognition");
  await expect(panel.getByTestId("recognition-supports")).toContainText("connect: permission denied");
  await expect(panel.getByTestId("recognition-contradicts")).toContainText("SELinux");
  await expect(panel).toContainText("Confirm with:");
  await shot(page, "15-catalog-entry-recognition");
});

test("a root cause says which failure modes' symptoms it accounts for, with links", async ({ page }) => {
  await page.goto("/catalog/kms-static-pod-runtime-unavailable");
  const explains = page.getByTestId("entry-recognition").getByTestId("recognition-explains");
  await expect(explains).toContainText("also accounts for");
  await explains.getByRole("link", { name: "KMS plugin unavailable" }).click();
  await expect(page).toHaveURL(/\/catalog\/kms-plugin-unavailable$/);
  await expect(page.getByTestId("recognition-explains")).toHaveCount(0);
});

test("navigation links every section, none marked as not built yet", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByText("soon")).toHaveCount(0);
  for (const name of ["Catalog", "Live health", "Incidents", "Runbooks", "Blast radius", "Demo cluster"])
    await expect(nav.getByRole("link", { name })).toBeVisible();
  // Every link on the home page leads somewhere real.
  const hrefs = await page.locator("a[href^='/']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  for (const href of new Set(hrefs)) {
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
  }
});
