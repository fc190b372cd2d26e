import { expect, test } from "@playwright/test";
import { scenario, shot } from "./helpers";

// "What the logs say" on a real incident of the demo cluster: the logs of its nodes read when it opened, in the
// programs' own words, and read again on request.

test("an incident's page shows what its nodes' logs say, and reads them again on request", async ({ page, request }) => {
  test.setTimeout(120_000);
  await scenario(request, "transit-key-deleted");
  try {
    let id = 0;
    await expect
      .poll(
        async () => {
          const list = (await (await request.get("/api/v1/incidents?cluster=demo&status=open")).json()) as {
            incidents: { id: number; topSuspect?: { id: string } | null }[];
          };
          id = list.incidents.find((i) => i.topSuspect?.id === "transit-key-deleted")?.id ?? 0;
          return id;
        },
        { timeout: 30_000, message: "an open incident whose top suspect is transit-key-deleted" },
      )
      .toBeGreaterThan(0);
    await page.goto(`/incidents/${id}`);
    const logs = page.getByTestId("incident-logs");
    await expect(logs.getByRole("heading", { name: "What the logs say" })).toBeVisible();
    // Read when it opened, off the monitor's round: the sources arrive on their own.
    await expect(logs.getByTestId("log-source").first()).toBeVisible({ timeout: 30_000 });
    await logs.getByRole("button", { name: "Read the logs again" }).click();
    const plugin = logs.getByTestId("log-source").filter({ hasText: "kms-plugin-1" }).first();
    await expect(plugin).toContainText("OpenBao answers 404 for the Transit key", { timeout: 30_000 });
    await expect(plugin.locator("[data-telling]").first()).toContainText('"status":"not_found"');
    await expect(logs).toContainText(/\d+(\.\d)? (B|KiB) read/);
    await shot(page, "56-incident-logs");
  } finally {
    await scenario(request, "transit-key-deleted", { on: false });
  }
});
