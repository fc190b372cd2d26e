import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { healthUntil, sameOrigin, scenario, shot } from "./helpers";

// Against the in-process demo cluster
// (playwright.config.ts: reporters every 2 s, monitor every 1 s), so the stale threshold is 4 x 2 s = 8 s.

test.afterEach(async ({ request }) => {
  await request.post("/api/v1/demo/api-server", sameOrigin({ state: "up" }));
  for (const id of ["kms-plugin-unavailable", "reporter-stale", "api-throttled"]) await request.delete(`/api/v1/demo/scenarios/${id}`, sameOrigin());
});

test("a plugin failing on one node reaches the open page within seconds, and clears", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto("/health");
  const cell = page.getByTestId("kms-matrix").locator('[data-cell="master-1/1"]');
  await expect(cell).toContainText("healthy");
  const times: number[] = [];
  // 10 failures and 10 recoveries: 20 changes, as the live-health issue asks to measure.
  for (let i = 0; i < 10; i++) {
    let t0 = Date.now();
    await scenario(request, "kms-plugin-unavailable", { node: "master-1" });
    await expect(cell).toContainText("error", { timeout: 8000 });
    times.push(Date.now() - t0);
    if (i === 0) {
      await expect(page.getByTestId("rollup")).toContainText("KMS degraded");
      await expect(page.getByTestId("disagreement")).toBeVisible();
      // One signal per API server whose plugin on master-1 fails: kube-apiserver, openshift-apiserver, oauth-apiserver.
      for (const subject of ["master-1/1", "openshift-apiserver master-1/1", "oauth-apiserver master-1/1"]) {
        await expect(page.locator(`[data-signal="kms.plugin.unhealthy"][data-state="critical"][data-subject="${subject}"]`)).toBeVisible();
      }
      await expect(page.locator('[data-component="KMS plugins"]')).toContainText("critical");
      await expect(page.locator('[data-component="OpenBao"]')).toContainText("ok");
      // The openshift-apiserver's replica on master-1 has its own matrix, opened because it is degraded.
      await expect(page.getByTestId("kms-matrix-openshift-apiserver").locator('[data-cell="master-1/1"]')).toContainText("error");
      await expect(page.locator('[data-signal="kms.plugin.unhealthy"][data-state="critical"]', { hasText: "openshift-apiserver master-1/1" })).toBeVisible();
      await shot(page, "40-health-plugin-down");
    }
    t0 = Date.now();
    await scenario(request, "kms-plugin-unavailable", { on: false });
    await expect(cell).toContainText("healthy", { timeout: 8000 });
    times.push(Date.now() - t0);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const result = { changes: times.length, medianMs: sorted[Math.floor(sorted.length / 2)], p95Ms: sorted[Math.ceil(sorted.length * 0.95) - 1], all: times };
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/health-latency.json", JSON.stringify(result, null, 2));
  console.log(`change to screen over ${times.length} changes: median ${result.medianMs} ms, p95 ${result.p95Ms} ms`);
});

test("the KMS metrics from the demo's Prometheus draw sparklines, and a failed plugin's circuit breaker opens", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto("/health");
  const panel = page.getByTestId("kms-metrics");
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('[data-metric="latencyP99"] svg.sparkline[role="img"]').first()).toHaveAttribute(
    "aria-label",
    /KMS call latency, p99, master-\d.*: last /,
    { timeout: 30_000 },
  );
  await scenario(request, "kms-plugin-unavailable", { node: "master-1" });
  // The scrape that carries the open breaker, as the monitor read it from Prometheus; then the page shows it.
  await healthUntil(
    request,
    (h) => h.metrics?.metrics.circuitBreaker.series.some((s) => s.labels.node === "master-1" && s.value === 1) ?? false,
    "master-1's open circuit breaker in the KMS metrics",
    90_000,
  );
  const breaker = panel.locator('[data-metric="circuitBreaker"] [data-series^="master-1"]');
  await expect(breaker).toHaveAttribute("data-tone", "critical", { timeout: 15_000 });
  await expect(page.locator('[data-signal="kms.plugin.unhealthy"][data-subject="master-1/1/circuit-breaker"][data-state="critical"]')).toBeVisible();
  await shot(page, "41-health-kms-metrics");
});

test("a reporter that stops writing turns its node Unknown after the threshold", async ({ page, request }) => {
  await page.goto("/health");
  await scenario(request, "reporter-stale", { node: "master-2" });
  const cell = page.getByTestId("kms-matrix").locator('[data-cell="master-2/1"]');
  await expect(cell).toContainText("unknown", { timeout: 20_000 });
  await expect(cell).toContainText("stale");
  await expect(page.getByTestId("rollup")).toContainText("master-2: report stale");
});

test("the cluster API going down shows the last known state as stale, and the page recovers by itself", async ({ page, request }) => {
  await page.goto("/health");
  await expect(page.getByTestId("kms-matrix")).toBeVisible();
  await request.post("/api/v1/demo/api-server", sameOrigin({ state: "down" }));
  const banner = page.getByTestId("sources-down");
  await expect(banner).toContainText(/kubeapiserver(, \w+)* (is|are) down: stale since/, { timeout: 8000 });
  await expect(page.getByTestId("kms-matrix")).toBeVisible();
  await expect(page.getByTestId("rollup")).toContainText("showing the last known state");
  await shot(page, "41-health-api-down");
  await request.post("/api/v1/demo/api-server", sameOrigin({ state: "up" }));
  await expect(banner).toHaveCount(0, { timeout: 8000 });
  await expect(page.getByTestId("rollup")).toContainText("KMS healthy");
});

test("an API server that throttles (429, Retry-After) is shown as throttling, not as an outage, and the page says its verdict is as last read", async ({
  page,
  request,
}) => {
  await page.goto("/health");
  await expect(page.getByTestId("kms-matrix")).toBeVisible();
  expect((await request.post("/api/v1/demo/scenarios/api-throttled", sameOrigin({ variant: "429" }))).status()).toBe(200);
  await expect(page.getByTestId("sources-throttled")).toContainText(/throttled by the API server \(HTTP 429\), retrying in \d+ s/, { timeout: 10_000 });
  await expect(page.getByTestId("rollup-throttled")).toContainText("as last read");
  await expect(page.getByTestId("sources-down")).toHaveCount(0);
  await expect(page.getByTestId("rollup")).not.toContainText("unreachable");
  await shot(page, "42-health-api-throttled");
  await request.delete("/api/v1/demo/scenarios/api-throttled", sameOrigin());
  await expect(page.getByTestId("sources-throttled")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId("rollup-throttled")).toHaveCount(0);
});

test("open pages are told of a change by server push, and the push carries what changed", async ({ page, request }) => {
  await page.goto("/health");
  type Put = { id: string; subject: string; state: string };
  // The stream is open (the server has it) before the change is made, so the push cannot come before the listener.
  await page.evaluate(
    () =>
      new Promise<void>((opened) => {
        const source = new EventSource("/api/v1/clusters/demo/events");
        const w: Window & { heard?: Promise<string> } = window;
        w.heard = new Promise<string>((resolve) => {
          source.addEventListener("health", (event) => {
            const data = (event as MessageEvent).data as string;
            const push = JSON.parse(data) as { patch: { signals?: { put?: Put[] } } };
            // Pushes from the reporters' own rounds come and go; wait for the one that says master-0's plugin failed.
            if (!push.patch.signals?.put?.some((s) => s.id === "kms.plugin.unhealthy" && s.subject.startsWith("master-0") && s.state !== "ok")) return;
            source.close();
            resolve(data);
          });
        });
        source.addEventListener("open", () => opened(), { once: true });
      }),
  );
  await scenario(request, "kms-plugin-unavailable", { node: "master-0" });
  const heard = await page.evaluate(() => {
    const w: Window & { heard?: Promise<string> } = window;
    return w.heard!;
  });
  const push = JSON.parse(heard) as {
    cluster: string;
    version: number;
    base: number | null;
    patch: { set?: { signals?: unknown }; signals?: { put?: Put[] } };
  };
  expect(push.cluster).toBe("demo");
  expect(push.base).toEqual(expect.any(Number));
  expect(push.version).toBeGreaterThan(push.base!);
  // The changed signals by identity, not the whole list again.
  expect(push.patch.set?.signals).toBeUndefined();
});

test("the landing page gives one line per watched cluster", async ({ page }) => {
  await page.goto("/");
  const line = page.getByTestId("cluster-summaries").locator("li");
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(/^(ok|degraded|unknown) demo \(simulated\): \S/);
});

test("the clusters API lists the demo cluster and a JSON 404 for others", async ({ request }) => {
  const list = await (await request.get("/api/v1/clusters")).json();
  expect(list.clusters[0]).toMatchObject({ name: "demo", simulated: true, monitor: "leader" });
  const missing = await request.get("/api/v1/clusters/prod/health");
  expect(missing.status()).toBe(404);
});
