import { expect, test, type APIRequestContext } from "@playwright/test";
import { healthUntil, sameOrigin, scenario, shot } from "./helpers";

// One failure, one incident, titled by its root cause: a sealed OpenBao that the cluster shows only through
// kube-apiserver's kms-providers check (the plugins' Status redacted to "unhealthy", their reporters stopped) and
// OpenBao's own health. Against the in-process demo cluster with the fast e2e rules (playwright.config.ts).

const SCENARIO = "openbao-sealed-redacted";
const TITLE = "OpenBao sealed (openbao)";

test.afterEach(async ({ request }) => {
  await request.delete(`/api/v1/demo/scenarios/${SCENARIO}`, sameOrigin());
});

/** Unresolved incidents on the demo cluster. */
async function unresolved(request: APIRequestContext): Promise<number[]> {
  const body = await (await request.get("/api/v1/incidents?cluster=demo&status=open,acknowledged")).json();
  return body.incidents.map((i: { id: number }) => i.id);
}

test("a sealed OpenBao behind the redacted kms-providers check opens one incident, titled by its root cause", async ({ page, request }) => {
  test.setTimeout(90_000);
  // Incidents other specs (or an earlier run) left open are resolved first, past the 3 s reopen window, so the
  // incidents this test counts are the ones its injection opens.
  const leftover = await unresolved(request);
  for (const id of leftover) {
    await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ actor: "e2e-setup", resolution: "left over from earlier specs" }));
  }
  if (leftover.length > 0) await page.waitForTimeout(3_500);
  await page.goto("/incidents");
  await scenario(request, SCENARIO);
  // What Faultline reads: the check failing with the redacted status, and OpenBao answering sealed.
  await healthUntil(
    request,
    (h) =>
      h.signals.some(
        (s) => s.id === "apiserver.kms-providers.failing" && s.state === "critical" && /got unexpected healthz status: unhealthy/.test(s.detail),
      ) && h.signals.some((s) => s.id === "openbao.sealed" && s.state === "critical"),
    "the kms-providers check failing redacted and OpenBao sealed",
    20_000,
  );

  const row = page
    .locator('[data-testid="incident-row"][data-status="open"]')
    .filter({ hasText: "demo" })
    .filter({ has: page.locator("a.incident-title", { hasText: TITLE }) })
    .first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.locator("td").nth(5)).toHaveText("OpenBao sealed");
  await row.locator("a.incident-title").click();
  await expect(page).toHaveURL(/\/incidents\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await expect(page.getByTestId("incident-header")).toContainText(TITLE);
  await expect(page.getByTestId("suspects").locator("li").first()).toHaveAttribute("data-suspect", "openbao-sealed");
  // Both are its members: the redacted check and the root signal, on the same page.
  const live = page.getByTestId("live-signals");
  await expect(live.locator('[data-signal="apiserver.kms-providers.failing"][data-state="critical"]')).toBeVisible();
  await expect(live.locator('[data-signal="openbao.sealed"][data-state="critical"]')).toBeVisible();
  await shot(page, "62-one-incident-sealed-redacted");

  // And nothing else opened on the demo cluster for it: the one incident holds every signal that fires.
  const detail = await (await request.get(`/api/v1/incidents/${id}`)).json();
  const held = (detail.members as { signal: string; subject: string }[]).map((m) => `${m.signal} ${m.subject}`);
  expect(held).toEqual(expect.arrayContaining(["apiserver.kms-providers.failing api", "openbao.sealed openbao"]));
  expect(await unresolved(request)).toEqual([id]);

  await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ actor: "e2e-one-incident", resolution: "scenario cleared" }));
});
