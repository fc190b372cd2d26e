import { expect, test, type APIRequestContext } from "@playwright/test";
import { healthUntil, sameOrigin, scenario, shot } from "./helpers";

// The plugin's own failure counters, end to end: the demo plugin counts refused decrypts with their bounded reason,
// Debian's Prometheus scrapes them, Faultline's query reads them, the health page quotes them and the incident names
// the cause from the reason. Last of the specs on purpose ("zz-"): what the plugin counted stays in the 15-minute
// window after the scenario ends. What earlier specs made the plugin count (OpenBao sealed, say) is in that window
// too, so the plugin's sentence may list those first: the spec looks for its own counter wherever it stands.

const SCENARIO = "annotations-missing-or-malformed";
const COUNTED = "decrypts refused by AAD validation (annotation_invalid)";
const TITLE = "Missing or malformed annotations (cluster)";

test.afterEach(async ({ request }) => {
  await request.delete(`/api/v1/demo/scenarios/${SCENARIO}`, sameOrigin());
});

async function unresolved(request: APIRequestContext): Promise<{ id: number; title: string }[]> {
  const body = await (await request.get("/api/v1/incidents?cluster=demo&status=open,acknowledged")).json();
  return body.incidents;
}

test("an incident opened from the plugin's refusal counters names the annotations, not an AAD mismatch", async ({ page, request }) => {
  test.setTimeout(240_000);
  // What earlier specs left open is resolved by hand, past the 3 s reopen window (as e2e/grouping.spec.ts does), so a
  // title read below is the one this scenario earns.
  const leftover = await unresolved(request);
  for (const { id } of leftover) {
    await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ actor: "e2e-setup", resolution: "left over from earlier specs" }));
  }
  if (leftover.length > 0) await page.waitForTimeout(3_500);

  await scenario(request, SCENARIO);
  // The counter grows a refusal every 50 s per plugin; Prometheus's increase() needs two scrapes of the new series. Wait
  // for the scrape that carries a whole refusal, as the monitor read it, before asking the page.
  const health = await healthUntil(
    request,
    (h) => h.signals.some((s) => s.id === "kms.plugin.errors" && s.detail.includes(COUNTED)),
    (last) =>
      `the plugin's signal quoting ${COUNTED}; it said: ${
        last.signals
          .filter((s) => s.id === "kms.plugin.errors")
          .map((s) => `${s.subject} ${s.state} "${s.detail}"`)
          .join(", ") || "nothing"
      }`,
    180_000,
  );
  const counted = health.signals.find((s) => s.id === "kms.plugin.errors" && s.detail.includes(COUNTED))!;
  expect(counted.state).toBe("critical");

  await page.goto("/health");
  await expect(page.locator(`[data-signal="kms.plugin.errors"][data-subject="${counted.subject}"]`)).toContainText(COUNTED);
  await expect(page.locator('[data-component="KMS metrics"]')).toContainText("critical");
  // The reporters' own view stays healthy: the plugin answers Status, it only refuses these decrypts.
  await expect(page.locator('[data-component="KMS plugins"]')).toContainText("ok");
  await shot(page, "40-health-plugin-counters");

  await expect.poll(async () => (await unresolved(request)).map((i) => i.title), { timeout: 30_000 }).toContain(TITLE);
  await page.goto("/incidents");
  await page.getByRole("link", { name: TITLE }).first().click();
  const first = page.locator("ol li").first();
  await expect(first).toContainText("Missing or malformed annotations");
  await expect(first).toContainText('the text says "annotation_invalid"');
  await shot(page, "41-incident-from-plugin-counters");
});
