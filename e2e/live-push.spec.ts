import { expect, test } from "@playwright/test";
import { sameOrigin, scenario } from "./helpers";

// The health page applies what the server pushes (the changed part of the health) instead of fetching the whole
// health after each push; polling stays as the fallback. Against the in-process demo cluster.

test.afterEach(async ({ request }) => {
  await request.delete("/api/v1/demo/scenarios/kms-plugin-unavailable", sameOrigin());
});

test("a pushed change reaches /health without the page fetching the whole health for it", async ({ page, request }) => {
  test.setTimeout(90_000);
  // The page listens to the pushes of the summary view it holds (docs/health-api.md).
  const opened = page.waitForResponse((r) => r.url().endsWith("/api/v1/clusters/demo/events?view=summary"));
  await page.goto("/health");
  await opened;
  const cell = page.getByTestId("kms-matrix").locator('[data-cell="master-1/1"]');
  await expect(cell).toContainText("healthy");
  let fetches = 0;
  page.on("request", (r) => {
    if (r.method() === "GET" && new URL(r.url()).pathname === "/api/v1/clusters/demo/health") fetches++;
  });
  const changes = 8;
  for (let i = 0; i < changes / 2; i++) {
    await scenario(request, "kms-plugin-unavailable", { node: "master-1" });
    await expect(cell).toContainText("error", { timeout: 8000 });
    await scenario(request, "kms-plugin-unavailable", { on: false });
    await expect(cell).toContainText("healthy", { timeout: 8000 });
  }
  // Fetching after each push would make at least one request per change; the polls while push works are fewer.
  console.log(`${changes} changes on screen with ${fetches} whole-health fetches`);
  expect(fetches).toBeLessThan(changes);
});
