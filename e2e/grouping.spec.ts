import { expect, test } from "@playwright/test";
import { shot } from "./helpers";

// The incidents list names an incident after its most likely cause, not the first signal it heard: against the
// in-process demo cluster with the fast e2e rules (playwright.config.ts).

const SCENARIO = "/api/v1/demo/scenarios/transit-key-soft-deleted";
const TITLE = "Transit key soft-deleted (transit/k8s-kek)";

test.afterEach(async ({ request }) => {
  await request.delete(SCENARIO);
});

test("an injected soft-deleted Transit key is listed under its top suspect's title, and the timeline says the title changed", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto("/incidents");
  expect((await request.post(SCENARIO, { data: {} })).ok()).toBe(true);
  // The signal that fired is "Transit key missing"; the list shows what the suspects say happened.
  const row = page
    .locator('[data-testid="incident-row"][data-status="open"]')
    .filter({ hasText: "demo" })
    .filter({ has: page.locator("a.incident-title", { hasText: TITLE }) })
    .first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("transit.key.missing");
  await expect(row).not.toContainText("Transit key missing (");
  await shot(page, "60-incidents-title-from-suspect");

  await row.locator("a.incident-title").click();
  await expect(page.getByTestId("incident-header")).toContainText(TITLE);
  const changed = page.getByTestId("timeline").locator('[data-kind="title_changed"]');
  await expect(changed).toContainText(`Transit key missing (transit/k8s-kek) → ${TITLE} (top suspect transit-key-soft-deleted)`);
  await expect(changed).toContainText("title");
  await shot(page, "61-incident-title-changed");

  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await request.post(`/api/v1/incidents/${id}/resolve`, { data: { actor: "e2e-grouping", resolution: "scenario cleared" } });
});
