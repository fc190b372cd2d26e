import { expect, test } from "@playwright/test";
import { asAlertmanager, shot } from "./helpers";

// The incident history on the page: its own incidents (one alert in each of five clusters of its own), paged two
// at a time with the filters kept in the address, back and forward, and a search from the form.

test("the incident list pages forward and back with its filters in the address, and searches", async ({ page, request }) => {
  const run = Date.now().toString(36);
  const clusters = [1, 2, 3, 4, 5].map((n) => `e2e-hist-${run}-${n}`);
  for (const [n, cluster] of clusters.entries()) {
    const alert = {
      status: "firing",
      labels: { alertname: `HistoryProbe${n}`, severity: "warning", cluster, subject: `node-${n}/kms-${run}` },
      annotations: { summary: `History probe ${n} ${run}` },
      startsAt: new Date(Date.now() - (5 - n) * 60_000).toISOString(),
      fingerprint: `hist${run}${n}`,
    };
    const delivery = { version: "4", groupKey: `{}:{alertname="HistoryProbe${n}"}`, status: "firing", receiver: "faultline", alerts: [alert] };
    expect((await request.post("/api/v1/alerts/alertmanager", asAlertmanager(delivery))).status()).toBe(200);
  }
  const all = await (await request.get(`/api/v1/incidents?cluster=${clusters.join(",")}`)).json();
  expect(all.incidents).toHaveLength(5);
  const order: number[] = all.incidents.map((i: { id: number }) => i.id);

  const rows = () => page.getByTestId("incident-row").evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-incident"))));
  await page.goto(`/incidents?cluster=${clusters.join(",")}&status=open&limit=2`);
  await expect.poll(rows).toEqual(order.slice(0, 2));
  await expect(page.getByTestId("incident-counts")).toContainText("5 open");

  await page.getByTestId("older").click();
  await expect(page).toHaveURL(/[?&]cursor=[A-Za-z0-9_-]+/);
  const second = new URL(page.url()).searchParams;
  expect([second.get("cluster"), second.get("status"), second.get("limit")]).toEqual([clusters.join(","), "open", "2"]);
  await expect.poll(rows).toEqual(order.slice(2, 4));
  await page.getByTestId("older").click();
  await expect.poll(rows).toEqual(order.slice(4));
  await expect(page.getByTestId("older")).toHaveCount(0);
  await expect(page.getByText("End of the list.")).toBeVisible();
  await shot(page, "52-incident-history-last-page");

  await page.goBack();
  await expect.poll(rows).toEqual(order.slice(2, 4));
  await page.goBack();
  await expect.poll(rows).toEqual(order.slice(0, 2));
  await expect(page).not.toHaveURL(/cursor=/);
  await page.goForward();
  await expect.poll(rows).toEqual(order.slice(2, 4));

  // A search from the form starts at the first page, keeps the other filters, and finds by a subject's part.
  await page.getByRole("searchbox", { name: "Search" }).fill(`node-3/kms-${run}`);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=node-3%2Fkms-${run}`));
  await expect(page).not.toHaveURL(/cursor=/);
  await expect.poll(rows).toEqual([all.incidents.find((i: { title: string }) => i.title.includes(`probe 3 ${run}`)).id]);
  await page.goto(`/incidents?cluster=${clusters.join(",")}&cursor=not-a-cursor`);
  await expect(page.locator("p.field-error[role=alert]")).toContainText("Ignored: cursor is not a cursor of this list");
  await expect.poll(rows).toEqual(order.slice(0, 5));
});
