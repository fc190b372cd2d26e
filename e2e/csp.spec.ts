import { request as httpRequest } from "node:http";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { scanAppRoutes } from "../lib/http/route-table";
import { asAlertmanager, ORIGIN } from "./helpers";

// Every page under the server's Content-Security-Policy (a nonce per request, no inline script allowed), with a
// listener on the console: any error, CSP violation or uncaught exception fails the page. And the security headers
// on every kind of response: pages, the API, assets, errors, the edge's refusals, an event stream.

/** A concrete URL for every page route of the app, from the route table (a new page is visited the day it is added). */
async function pageUrls(request: APIRequestContext): Promise<string[]> {
  const get = async (url: string) => (await request.get(url)).json();
  // An incident to show, whatever ran before: one opened by an alert, as Alertmanager sends it.
  const opened = await request.post(
    "/api/v1/alerts/alertmanager",
    asAlertmanager({
      version: "4",
      groupKey: '{}:{alertname="CspPageTarget"}',
      status: "firing",
      receiver: "faultline",
      alerts: [
        {
          status: "firing",
          labels: { alertname: "CspPageTarget", cluster: "csp", severity: "warning" },
          annotations: {},
          startsAt: new Date().toISOString(),
          fingerprint: "f-csp",
        },
      ],
    }),
  );
  expect(opened.status()).toBe(200);
  const values: Record<string, string> = {
    "catalog/[id]": (await get("/api/v1/catalog")).entries[0].id,
    "runbooks/[id]": (await get("/api/v1/runbooks")).runbooks[0].id,
    "blast-radius/[component]": (await get("/api/v1/blast-radius")).pages[0].id,
    "incidents/[id]": String((await get("/api/v1/incidents?status=open,acknowledged,resolved&limit=1")).incidents[0]?.id ?? 1),
    "clusters/[name]": (await get("/api/v1/clusters")).clusters[0].name,
  };
  return scanAppRoutes(path.resolve("app"))
    .filter((s) => s.kind === "page")
    .map((s) => s.pattern.replace(/\/([a-z-]+)\/\[[^\]]+\]/g, (whole, name: string) => `/${name}/${values[`${name}/${whole.split("/")[2]}`]}`));
}

/** Collects console errors, CSP violations and page errors for one page. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  return problems;
}

test("every page renders, hydrates and styles its diagrams under the CSP with nothing in the console", async ({ page, request }) => {
  test.setTimeout(120_000);
  // Injected by the browser's debugger protocol, not by the page: the CSP does not apply to it.
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`)),
  );
  const problems = watch(page);
  const urls = await pageUrls(request);
  expect(urls.length).toBeGreaterThanOrEqual(12);
  for (const url of urls) {
    expect(url, "every dynamic segment has a value").not.toMatch(/undefined|\[/);
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(200);
    const policy = response!.headers()["content-security-policy"];
    const nonce = /'nonce-([^']+)'/.exec(policy)![1];
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    // Next.js put this response's nonce on every script of the page, and its scripts ran (the router is up).
    const html = await response!.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length, url).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, url).toContain(`nonce="${nonce}"`);
    await page.waitForFunction(() => {
      const w: Window & { next?: { version?: string } } = window;
      return Boolean(w.next?.version);
    });
    await page.waitForLoadState("networkidle");
    expect(problems, url).toEqual([]);
  }

  // The pre-rendered diagram's own <style> (allowed by its hash) styles it.
  await page.goto(urls.find((u) => /^\/runbooks\/[^/]+$/.test(u))!);
  const font = await page.locator("#runbook").evaluate((svg) => getComputedStyle(svg).fontFamily);
  expect(font).toContain("system-ui");
  expect(problems).toEqual([]);
});

/** The headers of one answer, read without waiting for its body (an event stream never ends). */
function headersOf(
  target: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown> }> {
  const base = new URL(ORIGIN);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: base.hostname, port: base.port, path: target, method: init.method ?? "GET", headers: init.headers, agent: false },
      (res) => {
        resolve({ status: res.statusCode!, headers: res.headers });
        res.destroy();
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test("the security headers are on pages, the API, assets, errors, refusals and event streams", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const asset = /\/_next\/static\/[^"]+\.js/.exec(html)![0];
  const targets: [string, Parameters<typeof headersOf>[1], number][] = [
    ["/", {}, 200],
    ["/incidents", {}, 200],
    ["/api/v1/catalog", {}, 200],
    ["/api/healthz", {}, 200],
    [asset, {}, 200],
    ["/no-such-page", {}, 404],
    ["/api/v1/incidents/abc", {}, 400],
    ["/api/v1/catalog/%zz", {}, 400],
    ["/api/v1/incidents/1/notes", { method: "POST", headers: { origin: "http://evil.example", "content-type": "application/json" } }, 403],
    ["/", { headers: { host: "evil.example" } }, 421],
    ["/api/v1/alerts/alertmanager", { method: "POST", headers: { "content-type": "application/json" } }, 401],
    ["/api/v1/incidents/events", {}, 200],
    ["/metrics", {}, 200],
  ];
  for (const [target, init, status] of targets) {
    const answer = await headersOf(target, init);
    expect(answer.status, target).toBe(status);
    expect(answer.headers, target).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin" });
    expect(String(answer.headers["content-security-policy"]), target).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic';/);
    expect(String(answer.headers["content-security-policy"]), target).toContain("frame-ancestors 'none'");
  }
  // Over plain HTTP there is no HSTS (a browser would ignore it), and /metrics no longer names the Node.js version.
  expect((await headersOf("/")).headers["strict-transport-security"]).toBeUndefined();
  expect(await (await request.get("/metrics")).text()).not.toContain("nodejs_version_info");
});
