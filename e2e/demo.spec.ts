import { expect, test } from "@playwright/test";
import { sameOrigin, shot } from "./helpers";

test.afterEach(async ({ request }) => {
  for (const id of ["openbao-sealed", "clock-skew"]) await request.delete(`/api/v1/demo/scenarios/${id}`, sameOrigin());
});

test("every page says the cluster is simulated", async ({ page }) => {
  for (const url of ["/", "/catalog", "/runbooks", "/blast-radius/webhook", "/demo"]) {
    await page.goto(url);
    await expect(page.getByTestId("demo-banner")).toContainText("Simulated cluster");
  }
});

test("the page's old address, /game-day, leads to the demo cluster page", async ({ page, request }) => {
  const moved = await request.get("/game-day", { maxRedirects: 0 });
  expect(moved.status()).toBe(308);
  expect(moved.headers().location).toBe("/demo");
  await page.goto("/game-day");
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByRole("heading", { level: 1, name: "Demo cluster" })).toBeVisible();
});

test("a demo-cluster rehearsal: seal OpenBao, see every plugin turn unhealthy, clear it", async ({ page }) => {
  await page.goto("/demo");
  const now = page.getByTestId("cluster-now");
  await expect(page.getByTestId("in-force")).toContainText("nothing");
  await expect(page.getByTestId("openbao-state")).toHaveText("active");
  await page.locator('tr[data-scenario="openbao-sealed"]').getByRole("button", { name: "Inject" }).click();
  await expect(page.getByTestId("openbao-state")).toHaveText("sealed");
  await expect(now.locator("tr[data-node]")).toHaveCount(3);
  for (const row of await now.locator("tr[data-node]").all()) await expect(row).toContainText("unhealthy");
  await expect(now).toContainText("Vault is sealed");
  await expect(page.getByTestId("in-force")).toContainText("OpenBao sealed");
  await shot(page, "30-demo-openbao-sealed");

  // The scenario reaches the simulated API exactly as a client reads it.
  const api = await (await page.request.get("/api/v1/demo")).json();
  expect(api.scenarios.find((s: { id: string }) => s.id === "openbao-sealed").active).toBe(true);

  await page.getByTestId("in-force").getByRole("button", { name: "Clear OpenBao sealed" }).click();
  await expect(page.getByTestId("openbao-state")).toHaveText("active");
  // "healthy", not the "healthy" inside "unhealthy".
  for (const row of await now.locator("tr[data-node]").all()) await expect(row).toContainText(/(?<!un)healthy/);
  for (const row of await now.locator("tr[data-node]").all()) await expect(row).not.toContainText("unhealthy");
});

test("a per-node scenario strikes the chosen node only", async ({ page }) => {
  await page.goto("/demo");
  const row = page.locator('tr[data-scenario="clock-skew"]');
  await row.getByRole("combobox").selectOption("master-2");
  await row.getByRole("button", { name: "Inject" }).click();
  await expect(page.getByTestId("cluster-now").locator('tr[data-node="master-2"]')).toContainText("in the future");
  await expect(page.getByTestId("cluster-now").locator('tr[data-node="master-0"]')).not.toContainText("in the future");
});

test("the demo API validates what it is asked", async ({ request }) => {
  const unknown = await request.post("/api/v1/demo/scenarios/toaster-on-fire", sameOrigin({}));
  expect(unknown.status()).toBe(404);
  const badNode = await request.post("/api/v1/demo/scenarios/clock-skew", sameOrigin({ node: "Master 9" }));
  expect(badNode.status()).toBe(400);
  expect(await badNode.json()).toEqual({ error: "invalid request", fields: { node: ["node must be a node name like master-1"] } });
  const extra = await request.post("/api/v1/demo/scenarios/clock-skew", sameOrigin({ node: "master-1", colour: "red" }));
  expect(extra.status()).toBe(400);
});
