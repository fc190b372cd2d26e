import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

// Measures (does not assert) the JavaScript a browser downloads for /catalog, for the issue notes.
test("record the JavaScript transferred for /catalog", async ({ page }) => {
  await page.goto("/catalog", { waitUntil: "networkidle" });
  await expect(page.getByTestId("result-count")).toBeVisible();
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => (e as PerformanceResourceTiming).initiatorType === "script" || e.name.endsWith(".js"))
      .map((e) => ({ url: e.name, transfer: (e as PerformanceResourceTiming).transferSize, decoded: (e as PerformanceResourceTiming).decodedBodySize })),
  );
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { html: n.transferSize, htmlDecoded: n.decodedBodySize };
  });
  const total = scripts.reduce((sum, s) => sum + s.transfer, 0);
  const decoded = scripts.reduce((sum, s) => sum + s.decoded, 0);
  mkdirSync("test-results", { recursive: true });
  writeFileSync(
    "test-results/page-weight.json",
    JSON.stringify({ page: "/catalog", scriptsTransferred: total, scriptsDecoded: decoded, scripts: scripts.length, ...nav }, null, 2),
  );
  console.log(
    `/catalog: ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KiB transferred (${(decoded / 1024).toFixed(1)} KiB decoded); HTML ${(nav.html / 1024).toFixed(1)} KiB`,
  );
  expect(scripts.length).toBeGreaterThan(0);
});
