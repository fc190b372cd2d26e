import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Agent, fetch } from "undici";
import { shot } from "./helpers";

// The fleet view at 100 simulated clusters (e2e/fleet-scale.config.ts): every cluster one row, the page under 200 KB,
// and a fault in the cluster that sorts last by name (fleet-100) putting it first on the open page.

interface Fleet {
  clusters: number;
  name: string;
  dir: string;
}

async function setScenario(fleet: Fleet, cluster: string, id: string, on: boolean): Promise<void> {
  const info = JSON.parse(readFileSync(path.join(fleet.dir, "demo", `${cluster}.json`), "utf8")) as { url: string; adminToken: string; caFile: string };
  const dispatcher = new Agent({ connect: { ca: readFileSync(info.caFile, "utf8") } });
  const response = await fetch(`${info.url}/demo/v1/scenarios/${id}?node=master-1`, {
    method: on ? "POST" : "DELETE",
    headers: { Authorization: `Bearer ${info.adminToken}` },
    dispatcher,
  });
  if (!response.ok) throw new Error(`${on ? "inject" : "clear"} ${id} on ${cluster}: ${response.status} ${await response.text()}`);
  await dispatcher.close();
}

test("100 clusters: one row each under 200 KB of HTML, and the last by name first once it fails", async ({ page, request }, info) => {
  test.setTimeout(600_000);
  const fleet = info.config.metadata.fleet as Fleet;
  const last = `${fleet.name}-${fleet.clusters}`;
  await expect
    .poll(
      async () => {
        const { rows } = (await (await request.get("/api/v1/fleet")).json()) as { rows: { readAt: string | null }[] };
        return rows.filter((r) => r.readAt !== null).length;
      },
      { message: "every cluster read once", timeout: 300_000, intervals: [2_000] },
    )
    .toBe(fleet.clusters);

  const html = await (await request.get("/fleet")).body();
  console.log(`/fleet at ${fleet.clusters} clusters: ${(html.length / 1024).toFixed(1)} KB of HTML`);
  expect(html.length).toBeLessThan(200 * 1024);

  await page.goto("/fleet");
  const listed = page.getByTestId("fleet").locator("tbody tr");
  await expect(listed).toHaveCount(fleet.clusters);
  try {
    await setScenario(fleet, last, "kms-plugin-unavailable", true);
    await expect(listed.first()).toHaveAttribute("data-cluster", last, { timeout: 60_000 });
    await expect(listed.first()).toHaveAttribute("data-state", "critical");
    await shot(page, "62-fleet-100");
    const failing = await (await request.get("/fleet")).body();
    console.log(`/fleet with ${last} failing: ${(failing.length / 1024).toFixed(1)} KB of HTML`);
    expect(failing.length).toBeLessThan(200 * 1024);
  } finally {
    await setScenario(fleet, last, "kms-plugin-unavailable", false);
  }
});
