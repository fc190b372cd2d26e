import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { freePort, requestFrom, ROLE_GROUPS, startFaultline, startProvider, type Started } from "./auth-servers";

// Sign-in, roles and the audit log in a browser, against `npm start` in proxy mode (the proxy's headers set by the
// test, as oauth2-proxy would) and in OIDC mode (a real OpenID provider started by the test, e2e/auth-servers.ts).

test.describe.configure({ mode: "serial" });

const person = (email: string, groups: string) => ({ "X-Forwarded-Email": email, "X-Forwarded-Groups": groups });
const VIEWER = person("vera@example.org", "staff");
const RESPONDER = person("rosa@example.org", "sre,staff");
const ADMIN = person("adam@example.org", "sre-leads");

test.describe("behind an authenticating proxy", () => {
  let server: Started;
  let incident: number;
  const as = (browser: Browser, headers: Record<string, string>): Promise<BrowserContext> =>
    browser.newContext({ baseURL: server.url, extraHTTPHeaders: headers });

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    server = await startFaultline("proxy", { FAULTLINE_AUTH: "proxy", FAULTLINE_PROXY_SOURCES: "127.0.0.1", FAULTLINE_ROLE_GROUPS: ROLE_GROUPS });
    // An incident to act on: the admin breaks the demo cluster's OpenBao, the rules open one within seconds.
    const inject = await fetch(`${server.url}/api/v1/demo/scenarios/openbao-sealed`, {
      method: "POST",
      headers: { ...ADMIN, "Content-Type": "application/json", Origin: server.url },
      body: "{}",
    });
    expect(inject.status).toBe(200);
    for (let i = 0; i < 60 && !incident; i++) {
      const list = (await (await fetch(`${server.url}/api/v1/incidents?status=open`, { headers: VIEWER })).json()) as { incidents: { id: number }[] };
      incident = list.incidents[0]?.id;
      if (!incident) await new Promise((r) => setTimeout(r, 500));
    }
    expect(incident).toBeGreaterThan(0);
  });
  test.afterAll(async () => server?.stop());

  test("a viewer reads everything and is refused every action", async ({ browser }) => {
    const context = await as(browser, VIEWER);
    const page = await context.newPage();
    await page.goto(`/incidents/${incident}`);
    await expect(page.getByTestId("signed-in-as")).toContainText("vera@example.org viewer");
    await expect(page.getByTestId("incident-actions-readonly")).toHaveText("Acknowledging, notes and resolving need the responder role.");
    await expect(page.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "▶ Start runbook" })).toHaveCount(0);
    await page.goto("/demo");
    await expect(page.getByRole("button", { name: "Inject" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit", exact: true })).toHaveCount(0);
    // The server decides, whatever the page shows.
    const ack = await context.request.post(`/api/v1/incidents/${incident}/acknowledge`, { data: {}, headers: { origin: server.url } });
    expect([ack.status(), await ack.json()]).toEqual([403, { error: "vera@example.org is a viewer; this needs the responder role" }]);
    const audit = await page.goto("/audit");
    expect(audit?.status()).toBe(403);
    await expect(page.getByTestId("forbidden")).toContainText("vera@example.org is a viewer, which is not enough for this page");
    await context.close();
  });

  test("a responder acts on the incident under their own name, and is refused the demo controls", async ({ browser }) => {
    const context = await as(browser, RESPONDER);
    const page = await context.newPage();
    await page.goto(`/incidents/${incident}`);
    const actions = page.getByTestId("incident-actions");
    await expect(actions.getByTestId("acting-as")).toContainText("Acting as rosa@example.org");
    await actions.getByLabel("Note").fill("sealed on all three nodes");
    await actions.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByTestId("timeline").locator('[data-kind="note"]')).toContainText("sealed on all three nodes");
    // A body naming the rules as the actor changes nothing: the actor is the signed-in person.
    const ack = await context.request.post(`/api/v1/incidents/${incident}/acknowledge`, { data: { actor: "faultline" }, headers: { origin: server.url } });
    expect(ack.status()).toBe(200);
    expect((await ack.json()).incident.acknowledgedBy).toBe("rosa@example.org");
    const scenario = await context.request.post("/api/v1/demo/scenarios/openbao-sealed", { data: {}, headers: { origin: server.url } });
    expect([scenario.status(), (await scenario.json()).error]).toEqual([403, "rosa@example.org is a responder; this needs the admin role"]);
    await page.goto("/demo");
    await expect(page.getByRole("button", { name: "Inject" })).toHaveCount(0);
    await context.close();
  });

  test("an admin runs the demo and reads the audit log, refusals included, with links to the incident", async ({ browser }) => {
    const context = await as(browser, ADMIN);
    // The refusals so far (the viewer's acknowledge and /audit page, the responder's inject) are written once their
    // window of a few seconds closes.
    // Only people's: Chromium's prefetches of linked pages do not carry Playwright's extra headers (a real proxy adds
    // them to every request), so a prefetch can be refused as anonymous, and is rightly recorded so.
    type Entry = { actor: string; count: number };
    const people = (entries: Entry[]) => entries.filter((e) => e.actor !== "(unknown)");
    await expect
      .poll(
        async () =>
          people(((await (await context.request.get("/api/v1/audit?outcome=refused")).json()) as { entries: Entry[] }).entries).reduce(
            (n, e) => n + e.count,
            0,
          ),
        { timeout: 20_000 },
      )
      .toBe(3);
    const page = await context.newPage();
    await page.goto("/demo");
    await expect(page.getByRole("button", { name: "Inject" }).first()).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit", exact: true }).click();
    await expect(page).toHaveURL(/\/audit$/);
    const table = page.getByTestId("audit-table");
    const ack = table.locator('tr[data-action="incident.acknowledge"][data-status="200"]');
    await expect(ack).toContainText("rosa@example.org");
    await expect(ack.getByRole("link", { name: `incident #${incident}` })).toHaveAttribute("href", `/incidents/${incident}`);
    await expect(table.locator('tr[data-action="incident.acknowledge"][data-status="403"]')).toContainText("vera@example.org");
    await expect(table.locator('tr[data-action="demo.scenario.inject"][data-status="403"]')).toContainText("rosa@example.org");
    // A refused page is recorded too, with the role that fell short.
    const refusedPage = table.locator('tr[data-action="GET /audit"][data-status="403"]');
    await expect(refusedPage.locator('td[data-label="Who"]')).toHaveText("vera@example.org");
    await expect(refusedPage.locator('td[data-label="Role"]')).toHaveText("viewer");
    await page.getByLabel("Outcome").selectOption("refused");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/outcome=refused/);
    await expect(table.locator("tbody tr").filter({ hasNot: page.locator('td[data-label="Who"]', { hasText: "(unknown)" }) })).toHaveCount(3);
    const csv = await context.request.get("/api/v1/audit/export?format=csv&outcome=refused");
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    // The header and the three people's refusals.
    expect((await csv.text()).split("\r\n").filter((line) => line && !line.includes("(unknown)"))).toHaveLength(4);
    await context.close();
  });

  test("nobody gets in without a role, without the proxy's user, or from anywhere but the proxy", async ({ browser }) => {
    const context = await as(browser, person("mia@example.org", "marketing"));
    const page = await context.newPage();
    const noRole = await page.goto("/incidents");
    expect(noRole?.status()).toBe(403);
    await expect(page.getByTestId("forbidden")).toContainText("mia@example.org is signed in but none of their groups (marketing) has a role");
    await context.close();
    const anonymous = await browser.newContext({ baseURL: server.url });
    const signedOut = await (await anonymous.newPage()).goto("/catalog");
    expect(signedOut?.status()).toBe(401);
    await anonymous.close();
    const api = await fetch(`${server.url}/api/v1/incidents`);
    expect([api.status, await api.json()]).toEqual([401, { error: "not signed in: the authenticating proxy sent no user" }]);
    // From 127.0.0.2 the proxy's headers, and a forged peer header, are not believed.
    const outside = await requestFrom("127.0.0.2", `${server.url}/api/v1/incidents`, {
      ...ADMIN,
      "X-Faultline-Peer": "127.0.0.1",
      "X-Forwarded-For": "127.0.0.1",
    });
    expect(outside).toEqual({ status: 403, body: JSON.stringify({ error: "requests are accepted only through the authenticating proxy" }) });
  });
});

test.describe("signed in through OpenID Connect", () => {
  let server: Started;
  let provider: Started;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/auth/callback`;
    // Access tokens last 4 s (then the session refreshes), refresh tokens 12 s (then it ends).
    // The refresh token outlives the steps between sign-in and the audit page however slow the machine (they took over
    // 12 s beside a CPU hog and a second CI run); the test waits its whole life out below.
    provider = await startProvider(redirect, { accessToken: 4, refreshToken: 30 });
    server = await startFaultline(
      "oidc",
      {
        FAULTLINE_AUTH: "oidc",
        FAULTLINE_ROLE_GROUPS: ROLE_GROUPS,
        FAULTLINE_OIDC_ISSUER: provider.url,
        FAULTLINE_OIDC_CLIENT_ID: "faultline",
        FAULTLINE_OIDC_CLIENT_SECRET: "e2e-client-secret-not-real",
        FAULTLINE_OIDC_REDIRECT_URL: redirect,
      },
      port,
    );
  });
  test.afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  test("sign in, act, the session refreshes, then expires back to sign-in; sign out", async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto("/incidents");
    await expect(page).toHaveURL(/\/auth\/signin$/);
    expect((await context.request.get("/api/v1/incidents")).status()).toBe(401);
    await page.getByRole("link", { name: "Sign in" }).click();
    // The provider's own (development) sign-in and consent pages.
    await page.locator('input[name="login"]').fill("ops");
    await page.locator('input[name="password"]').fill("any");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("signed-in-as")).toContainText("ops@example.org admin");
    const cookie = (await context.cookies()).find((c) => c.name === "faultline_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });

    // Act: an admin's demo control, recorded under the signed-in name.
    const inject = await context.request.post("/api/v1/demo/scenarios/openbao-sealed", { data: {}, headers: { origin: server.url } });
    expect(inject.status()).toBe(200);
    await context.request.delete("/api/v1/demo/scenarios/openbao-sealed", { data: {}, headers: { origin: server.url } });

    // Past the access token's 4 s the session is refreshed from the provider: still signed in.
    await page.waitForTimeout(5_000);
    await page.goto("/audit");
    const rows = page.getByTestId("audit-table");
    await expect(rows.locator('tr[data-action="demo.scenario.inject"][data-status="200"]')).toContainText("ops@example.org");
    await expect(rows.locator('tr[data-action="auth.signin"]').first()).toContainText("ops@example.org");

    // Past the refresh token's 30 s (a renewed one was issued at the latest by the audit page above) nothing renews it:
    // a clean 401 for the API, the sign-in page for a page.
    await page.waitForTimeout(31_000);
    const api = await context.request.get("/api/v1/incidents");
    expect([api.status(), await api.json()]).toEqual([401, { error: "your session has ended; sign in again" }]);
    await page.goto("/health");
    await expect(page).toHaveURL(/\/auth\/signin$/);

    // Sign in again (the provider remembers the person), then sign out.
    await page.getByRole("link", { name: "Sign in" }).click();
    await page
      .getByRole("button", { name: "Continue" })
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    await expect(page.getByTestId("signed-in-as")).toContainText("ops@example.org admin");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/auth\/signin\?signed-out=1$/);
    await expect(page.getByTestId("signin")).toContainText("You are signed out.");
    expect((await context.request.get("/api/v1/incidents")).status()).toBe(401);
    await context.close();
  });
});
