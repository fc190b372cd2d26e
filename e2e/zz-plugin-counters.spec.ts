import { expect, test, type APIRequestContext } from "@playwright/test";
import { sameOrigin, shot } from "./helpers";

// The plugin's own failure counters, end to end: the demo plugin counts refused decrypts with their bounded reason,
// Debian's Prometheus scrapes them, Faultline's query reads them, the incident names the cause from the reason.
// Last of the specs on purpose ("zz-"): what the plugin counted stays in the 15-minute window after the scenario ends.

test.afterEach(async ({ request }) => {
  await request.delete("/api/v1/demo/scenarios/annotations-missing-or-malformed", sameOrigin());
});

async function openTitles(request: APIRequestContext): Promise<string[]> {
  const body = await (await request.get("/api/v1/incidents?cluster=demo&status=open,acknowledged")).json();
  return body.incidents.map((i: { title: string }) => i.title);
}

test("an incident opened from the plugin's refusal counters names the annotations, not an AAD mismatch", async ({ page, request }) => {
  test.setTimeout(180_000);
  expect((await request.post("/api/v1/demo/scenarios/annotations-missing-or-malformed", sameOrigin({}))).ok()).toBe(true);
  await page.goto("/health");
  // In the signal list: the card shows one of its worst signals, and earlier specs' decrypt errors may still be among them.
  await expect(page.getByText("The plugin counted in 15m: decrypts refused by AAD validation (annotation_invalid)").first()).toBeVisible({
    timeout: 150_000,
  });
  await expect(page.locator('[data-component="KMS metrics"]')).toContainText("critical");
  // The reporters' own view stays healthy: the plugin answers Status, it only refuses these decrypts.
  await expect(page.locator('[data-component="KMS plugins"]')).toContainText("ok");
  await shot(page, "40-health-plugin-counters");

  await expect.poll(() => openTitles(request), { timeout: 30_000 }).toContain("Missing or malformed annotations (cluster)");
  await page.goto("/incidents");
  await page
    .getByRole("link", { name: /Missing or malformed annotations/ })
    .first()
    .click();
  const first = page.locator("ol li").first();
  await expect(first).toContainText("Missing or malformed annotations");
  await expect(first).toContainText('the text says "annotation_invalid"');
  await shot(page, "41-incident-from-plugin-counters");
});
