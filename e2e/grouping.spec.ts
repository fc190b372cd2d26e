import { expect, test } from "@playwright/test";
import { sameOrigin, scenario, shot } from "./helpers";

// The incidents list names an incident after its most likely cause, not the first signal it heard: against the
// in-process demo cluster with the fast e2e rules (playwright.config.ts).

const SCENARIO = "/api/v1/demo/scenarios/transit-key-soft-deleted";
// In parentheses what its first active signal is about: the plugins on several nodes read "(cluster)".
const TITLE = /Transit key soft-deleted \([^)]+\)/;

test.afterEach(async ({ request }) => {
  await request.delete(SCENARIO, sameOrigin());
});

test("an injected soft-deleted Transit key is listed under its top suspect's title, and the timeline says the title changed", async ({ page, request }) => {
  test.setTimeout(90_000);
  // Incidents other specs (or an earlier run) left open are resolved first, past the 3 s reopen window, so the
  // incident this test reads is the one its injection opens.
  const open = await (await request.get("/api/v1/incidents?cluster=demo&status=open,acknowledged")).json();
  for (const { id } of open.incidents as { id: number }[]) {
    await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ actor: "e2e-setup", resolution: "left over from earlier specs" }));
  }
  if (open.incidents.length > 0) await page.waitForTimeout(3_500);
  await page.goto("/incidents");
  await scenario(request, "transit-key-soft-deleted");
  // The first signal to fire names the incident at first (the plugins' or the API server's check); the list shows
  // what the suspects say happened.
  const row = page
    .locator('[data-testid="incident-row"][data-status="open"]')
    .filter({ hasText: "demo" })
    .filter({ has: page.locator("a.incident-title", { hasText: TITLE }) })
    .first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.locator("td").nth(2)).toContainText(/signal \S+ on /);
  await shot(page, "60-incidents-title-from-suspect");

  await row.locator("a.incident-title").click();
  await expect(page.getByTestId("incident-header")).toContainText(TITLE);
  // Newest first: the latest title change is the one to the suspect's title.
  const changed = page.getByTestId("timeline").locator('[data-kind="title_changed"]').first();
  await expect(changed).toContainText(/→ Transit key soft-deleted \([^)]+\) \(top suspect transit-key-soft-deleted\)/);
  await expect(changed.locator(".kind")).toHaveText("title");
  await shot(page, "61-incident-title-changed");

  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ actor: "e2e-grouping", resolution: "scenario cleared" }));
});
