import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type TestInfo } from "@playwright/test";
import { Agent, fetch } from "undici";
import { shot } from "./helpers";

// Two servers run this file. Under e2e/fleet.config.ts (its metadata names the fleet) Faultline watches six simulated
// clusters, fleet-1 to fleet-6, through the clusters file `npm run demo` wrote: the fleet view, worst first and live,
// and each cluster's page. Under playwright.config.ts it watches the one demo cluster: /health is today's page.

interface Fleet {
  clusters: number;
  name: string;
  dir: string;
  label: string;
}
const fleetOf = (info: TestInfo) => info.config.metadata.fleet as Fleet | undefined;

interface FleetRowJson {
  name: string;
  state: string;
  readAt: string | null;
  incidents: { open: number } | null;
}

/** The simulated cluster's control API (what `npm run demo -- inject` calls), with the CA and admin token it wrote. */
async function setScenario(fleet: Fleet, cluster: string, id: string, on: boolean, node?: string): Promise<void> {
  const info = JSON.parse(readFileSync(path.join(fleet.dir, "demo", `${cluster}.json`), "utf8")) as { url: string; adminToken: string; caFile: string };
  const dispatcher = new Agent({ connect: { ca: readFileSync(info.caFile, "utf8") } });
  const response = await fetch(`${info.url}/demo/v1/scenarios/${id}${node ? `?node=${node}` : ""}`, {
    method: on ? "POST" : "DELETE",
    headers: { Authorization: `Bearer ${info.adminToken}` },
    dispatcher,
  });
  if (!response.ok) throw new Error(`${on ? "inject" : "clear"} ${id} on ${cluster}: ${response.status} ${await response.text()}`);
  await dispatcher.close();
}

/** Every cluster of the fleet read at least once: the monitors' first readings may come after the server is ready. */
async function fleetRead(request: APIRequestContext, fleet: Fleet): Promise<FleetRowJson[]> {
  let rows: FleetRowJson[] = [];
  await expect
    .poll(
      async () => {
        rows = ((await (await request.get("/api/v1/fleet")).json()) as { rows: FleetRowJson[] }).rows;
        return rows.filter((r) => r.readAt !== null).length;
      },
      { message: "every cluster of the fleet read once", timeout: 60_000 },
    )
    .toBe(fleet.clusters);
  return rows;
}

test.describe("a fleet of simulated clusters (e2e/fleet.config.ts)", () => {
  test.beforeEach(({}, info) => test.skip(!fleetOf(info), "runs under e2e/fleet.config.ts"));
  test.afterAll(async ({}, info) => {
    const fleet = fleetOf(info);
    if (!fleet) return;
    await setScenario(fleet, `${fleet.name}-1`, "wrapper-crash-once", false);
    await setScenario(fleet, `${fleet.name}-${fleet.clusters}`, "kms-plugin-unavailable", false);
  });

  test("a fault in the cluster that sorts last by name puts it first on the open fleet view, by push", async ({ page, request }, info) => {
    test.setTimeout(120_000);
    const fleet = fleetOf(info)!;
    const first = `${fleet.name}-1`;
    const last = `${fleet.name}-${fleet.clusters}`;
    const rows = await fleetRead(request, fleet);
    expect(rows.map((r) => r.name).sort()).toEqual(Array.from({ length: fleet.clusters }, (_, i) => `${fleet.name}-${i + 1}`));

    // The fleet is the first thing offered: first in the nav, and where /health leads with several clusters.
    const health = await request.get("/health", { maxRedirects: 0 });
    expect(health.status()).toBe(307);
    expect(health.headers().location).toMatch(/\/fleet$/);
    const events = page.waitForResponse((r) => r.url().endsWith("/api/v1/fleet/events"));
    await page.goto("/fleet");
    await events;
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link").first()).toHaveText("Fleet");
    await expect(nav.getByRole("link", { name: "Demo cluster" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Live health" })).toHaveCount(0);

    const table = page.getByTestId("fleet");
    const listed = table.locator("tbody tr");
    await expect(listed).toHaveCount(fleet.clusters);
    await expect(page.getByTestId("fleet-counts")).toContainText(`${fleet.clusters} clusters:`);
    // From here on, nothing but the pushes may change the page: no reload, no fetch of the rows.
    await page.evaluate(() => ((window as unknown as { fleetPage: string }).fleetPage = "not reloaded"));
    let fetched = 0;
    page.on("request", (r) => {
      if (r.method() === "GET" && new URL(r.url()).pathname === "/api/v1/fleet") fetched++;
    });

    // A warning on the first cluster by name puts it first; then a critical fault on the last puts that one first.
    await setScenario(fleet, first, "wrapper-crash-once", true);
    await expect(listed.first()).toHaveAttribute("data-cluster", first, { timeout: 30_000 });
    await expect(listed.first()).toHaveAttribute("data-state", "warning");
    await expect(listed.first()).toContainText("Wrapped workloads");
    await setScenario(fleet, last, "kms-plugin-unavailable", true, "master-1");
    await expect(listed.first()).toHaveAttribute("data-cluster", last, { timeout: 30_000 });
    const worst = listed.first();
    await expect(worst).toHaveAttribute("data-state", "critical");
    await expect(worst).toContainText("KMS plugins ×3");
    await expect(worst).toContainText("master-1: keyID 1 error");
    await expect(listed.nth(1)).toHaveAttribute("data-cluster", first);
    // Its incident opens within seconds (playwright.config.ts's rules): it arrives by push too, with its top suspect.
    const incidents = worst.locator('td[data-label="Incidents"]');
    await expect(incidents.getByRole("link", { name: "1 unresolved" })).toBeVisible({ timeout: 30_000 });
    await expect(incidents).toContainText("top suspect: ");
    await shot(page, "60-fleet-worst-first");
    expect(await page.evaluate(() => (window as unknown as { fleetPage?: string }).fleetPage)).toBe("not reloaded");
    expect(fetched).toBe(0);

    // The filter lives in the address: critical ones only, then a search by label and by name.
    await page.getByLabel("State", { exact: true }).selectOption("critical");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\/fleet\?.*state=critical/);
    await expect(listed).toHaveCount(1);
    await expect(listed.first()).toHaveAttribute("data-cluster", last);
    await page.goto(`/fleet?q=${encodeURIComponent(fleet.label)}`);
    await expect(listed).toHaveCount(fleet.clusters);
    await page.goto(`/fleet?q=${first}&state=ok`);
    await expect(page.getByTestId("fleet-empty")).toContainText("No cluster matches this filter.");
    await page.goto("/fleet?state=melting");
    await expect(page.getByTestId("fleet-filter-errors")).toContainText('Ignored: state "melting" is not a state');
    await expect(listed).toHaveCount(fleet.clusters);
  });

  test("each cluster has its own page, linked from its row and its incidents; a name Faultline does not watch is a 404", async ({ page, request }, info) => {
    test.setTimeout(90_000);
    const fleet = fleetOf(info)!;
    const last = `${fleet.name}-${fleet.clusters}`;
    await fleetRead(request, fleet);
    await setScenario(fleet, last, "kms-plugin-unavailable", true, "master-1");
    await page.goto("/fleet");
    await page.getByTestId("fleet").getByRole("link", { name: last, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/clusters/${last}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(last);
    await expect(page.getByTestId("cluster-labels")).toContainText(fleet.label);
    // What /health shows for one cluster: the rollup, the cards, the matrix, the signals.
    await expect(page.getByTestId("rollup")).toContainText("KMS degraded", { timeout: 30_000 });
    await expect(page.locator('[data-component="KMS plugins"]')).toContainText("critical");
    await expect(page.getByTestId("kms-matrix").locator('[data-cell="master-1/1"]')).toContainText("error");
    await expect(page.locator('[data-signal="kms.plugin.unhealthy"][data-state="critical"][data-subject="master-1/1"]')).toBeVisible();
    await expect(page.getByTestId(`cluster-${last}`)).toBeVisible();
    await shot(page, "61-cluster-page");

    // The incident names its cluster with a link back here.
    let open: { id: number }[] = [];
    await expect
      .poll(
        async () => {
          open = ((await (await request.get(`/api/v1/incidents?cluster=${last}&status=open,acknowledged`)).json()) as { incidents: { id: number }[] })
            .incidents;
          return open.length;
        },
        { message: `an unresolved incident on ${last}`, timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await page.goto(`/incidents/${open[0].id}`);
    await page.getByTestId("incident-header").getByRole("link", { name: last }).click();
    await expect(page).toHaveURL(new RegExp(`/clusters/${last}$`));

    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    for (const name of ["no-such-cluster", "%3Cscript%3Ealert(1)", "x".repeat(3000), `${fleet.name}-1%20`, `${fleet.name.toUpperCase()}-1`]) {
      // As a browser shows it: Next renders a not-found boundary in the browser, so the raw HTML does not carry its text.
      const response = await page.goto(`/clusters/${name}`);
      expect(response?.status(), name.slice(0, 40)).toBe(404);
      await expect(page.getByTestId("cluster-not-found").getByRole("heading")).toContainText("No cluster named");
    }
    expect(dialogs, "a script in a name must never run").toBe(0);
  });
});

test.describe("one cluster (playwright.config.ts)", () => {
  test.beforeEach(({}, info) => test.skip(Boolean(fleetOf(info)), "runs under playwright.config.ts"));

  test("a single cluster still shows today's /health, and gets a page of its own too", async ({ page, request }) => {
    const health = await request.get("/health", { maxRedirects: 0 });
    expect(health.status()).toBe(200);
    await page.goto("/health");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Live health");
    const section = page.getByTestId("cluster-demo");
    await expect(section.getByRole("heading", { level: 2 })).toHaveText(/^demo\s*simulated$/);
    await expect(section.getByTestId("rollup")).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Live health" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Demo cluster" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Fleet" })).toHaveCount(0);

    // The fleet view still answers, with its one row, and the cluster's own page shows the same health.
    await page.goto("/fleet");
    await expect(page.getByTestId("fleet").locator("tbody tr")).toHaveCount(1);
    await page.getByTestId("fleet").getByRole("link", { name: "demo", exact: true }).click();
    await expect(page).toHaveURL(/\/clusters\/demo$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("demo");
    await expect(page.getByTestId("cluster-demo").getByTestId("rollup")).toBeVisible();
    await expect(page.getByTestId("kms-matrix")).toBeVisible();
    await expect(nav.getByRole("link", { name: "Live health" })).toHaveAttribute("aria-current", "page");
    expect((await request.get("/clusters/prod")).status()).toBe(404);
  });
});
