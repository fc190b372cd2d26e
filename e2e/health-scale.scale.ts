import { expect, test } from "@playwright/test";
import { sameOrigin, scenario, shot } from "./helpers";

// /health against a 500-node demo cluster (e2e/health-scale.config.ts; reporters every 2 s, monitor every 1 s):
// the page holds the counts and the nodes that need attention, the healthy ones come by page when asked for,
// and a node that fails appears without a reload.

test.afterEach(async ({ request }) => {
  await request.delete("/api/v1/demo/scenarios/kms-plugin-unavailable", sameOrigin());
});

test("a 500-node cluster: every node counted, healthy rows on demand, a failing node appears live", async ({ page, request }) => {
  test.setTimeout(120_000);
  // The monitor's first reading of 500 nodes may not be in yet when the server answers readyz.
  await expect.poll(async () => (await request.get("/api/v1/clusters/demo/health?view=summary")).status(), { timeout: 60_000 }).toBe(200);
  const html = await request.get("/health");
  // The page carries the summary, not 500 rows: a bound on what every open tab downloads.
  expect((await html.body()).length).toBeLessThan(150 * 1024);

  await page.goto("/health");
  const counts = page.getByTestId("kms-matrix-counts");
  await expect(counts).toContainText("500 nodes: 500 healthy, 0 unhealthy, 0 unknown or stale");
  const matrix = page.getByTestId("kms-matrix");
  await expect(matrix.locator("tr[data-node]")).toHaveCount(0);
  const healthy = page.getByTestId("kms-matrix-healthy");
  await expect(healthy).toContainText("500 of 500 nodes report every plugin healthy and are not listed.");
  await shot(page, "45-health-500-nodes");

  // Each page of rows is asked of the server when the button is pressed: the rows are looked for once its answer is in,
  // however long a loaded machine takes to give it.
  const rowsPage = () => page.waitForResponse((r) => r.url().includes("view=rows") && r.ok(), { timeout: 60_000 });
  let answered = rowsPage();
  await healthy.getByRole("button", { name: "Show healthy nodes" }).click();
  await answered;
  await expect(matrix.locator("tr[data-node]")).toHaveCount(200);
  await expect(healthy).toContainText("200 of 500 listed.");
  answered = rowsPage();
  await healthy.getByRole("button", { name: "Show more" }).click();
  await answered;
  await expect(matrix.locator("tr[data-node]")).toHaveCount(400);
  await healthy.getByRole("button", { name: "Hide them" }).click();
  await expect(matrix.locator("tr[data-node]")).toHaveCount(0);

  await scenario(request, "kms-plugin-unavailable", { node: "master-321" });
  const row = matrix.locator('tr[data-node="master-321"]');
  await expect(row).toContainText("error", { timeout: 15_000 });
  await expect(counts).toContainText("499 healthy, 1 unhealthy");
  await expect(page.getByTestId("rollup")).toContainText("KMS degraded");
  await shot(page, "46-health-500-nodes-one-failing");

  await scenario(request, "kms-plugin-unavailable", { on: false });
  await expect(row).toHaveCount(0, { timeout: 15_000 });
  await expect(counts).toContainText("500 healthy, 0 unhealthy");
});
