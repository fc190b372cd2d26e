import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { scanAppRoutes } from "../lib/http/route-table";
import { asAlertmanager, ORIGIN, sameOrigin } from "./helpers";

// Forged state changes against the real server (`npm start`): each state-changing route of the app, sent every way a
// hostile page or a rebound DNS name can send it, must change nothing. Then a hostile page in Chromium, served from
// another local origin, tries the same with forms, fetch() and a frame.

const CLUSTER = `forgery-${Date.now()}`;
const STATE_CHANGING = ["POST", "PUT", "PATCH", "DELETE"];
const routes = scanAppRoutes(path.resolve("app")).flatMap((s) =>
  s.allow.filter((m) => STATE_CHANGING.includes(m)).map((method) => ({ method, pattern: s.pattern })),
);

interface Target {
  incident: number;
  session: number;
  node: string;
  /** An answer the session's current step takes (none when it has one way on). */
  answer?: string;
}

const alert = (name: string) => ({
  version: "4",
  groupKey: `{}:{alertname="${name}"}`,
  status: "firing",
  receiver: "faultline",
  alerts: [
    {
      status: "firing",
      labels: { alertname: name, cluster: CLUSTER, severity: "warning" },
      annotations: {},
      startsAt: new Date().toISOString(),
      fingerprint: `f-${name}`,
    },
  ],
});

/** A real incident (by Alertmanager, with its token) and a runbook session on it, to forge actions against. */
async function makeTarget(request: APIRequestContext): Promise<Target> {
  const opened = await (await request.post("/api/v1/alerts/alertmanager", asAlertmanager(alert("ForgeryTarget")))).json();
  const incident = Number(opened.outcomes[0].incidentId);
  const runbook = (await (await request.get("/api/v1/runbooks")).json()).runbooks[0].id;
  const started = await request.post(`/api/v1/incidents/${incident}/runbook-sessions`, sameOrigin({ actor: "e2e", runbookId: runbook }));
  expect(started.status()).toBe(201);
  const { session } = await started.json();
  const node: string = session.path.at(-1);
  const nodes: { id: string; next: { label?: string }[] }[] = (await (await request.get(`/api/v1/runbooks/${runbook}`)).json()).nodes;
  const next = nodes.find((n) => n.id === node)!.next;
  return { incident, session: session.id, node, answer: next.length > 1 ? next[0].label : undefined };
}

/** A body each route would take from a real user, so only the forgery rules stand between it and a change. */
function bodyFor(pattern: string, target: Target): Record<string, string> {
  const bodies: Record<string, Record<string, string>> = {
    "/api/v1/incidents/[id]/acknowledge": { actor: "evil" },
    "/api/v1/incidents/[id]/notes": { actor: "evil", text: "forged note" },
    "/api/v1/incidents/[id]/evidence": {
      actor: "evil",
      text: "[fail] transit.profile: Transit key profile - blocking/api_server_availability: key is soft-deleted",
    },
    "/api/v1/incidents/[id]/resolve": { actor: "evil", resolution: "forged" },
    "/api/v1/incidents/[id]/runbook-sessions": { actor: "evil", runbookId: "openbao-sealed" },
    "/api/v1/incidents/[id]/runbook-sessions/[sid]/steps": { actor: "evil", node: target.node, ...(target.answer ? { answer: target.answer } : {}) },
    "/api/v1/demo/api-server": { state: "down" },
    "/api/v1/demo/scenarios/[id]": {},
  };
  return bodies[pattern] ?? {};
}

function urlFor(pattern: string, target: Target): string {
  if (pattern === "/api/v1/alerts/alertmanager") return pattern;
  return pattern.replace("[id]", pattern.startsWith("/api/v1/demo") ? "clock-skew" : String(target.incident)).replace("[sid]", String(target.session));
}

/** What a careful reader of the incident sees: everything but the moment of the export. */
async function incidentState(request: APIRequestContext, id: number) {
  const exported = await (await request.get(`/api/v1/incidents/${id}/export?format=json`)).json();
  delete exported.exportedAt;
  return exported;
}

async function demoState(request: APIRequestContext) {
  const demo = await (await request.get("/api/v1/demo")).json();
  return { active: demo.scenarios.filter((s: { active: boolean }) => s.active).map((s: { id: string }) => s.id) };
}

const port = new URL(ORIGIN).port;
/** Form fields are text: a nested value (the webhook's alerts) goes as its JSON. */
const fields = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
/** The forged variants: Playwright's request options for a route's body. */
const variants: { name: string; options: (body: Record<string, unknown>) => Parameters<APIRequestContext["fetch"]>[1]; status: number }[] = [
  { name: "Origin of another site", options: (data) => ({ data, headers: { origin: "http://evil.example" } }), status: 403 },
  { name: "Origin: null", options: (data) => ({ data, headers: { origin: "null" } }), status: 403 },
  { name: "no Origin", options: (data) => ({ data }), status: 403 },
  { name: "text/plain", options: (data) => ({ data: JSON.stringify(data), headers: { origin: ORIGIN, "content-type": "text/plain" } }), status: 415 },
  { name: "form encoding", options: (data) => ({ form: fields(data), headers: { origin: ORIGIN } }), status: 415 },
  { name: "multipart", options: (data) => ({ multipart: fields(data), headers: { origin: ORIGIN } }), status: 415 },
  {
    name: "Host rebound to evil.example",
    options: (data) => ({ data, headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}` } }),
    status: 421,
  },
];

test("every forged state change is refused with its reason, and nothing changes", async ({ request, page }) => {
  expect(routes.length).toBeGreaterThanOrEqual(9);
  const target = await makeTarget(request);
  // A scenario is on, so a forged DELETE would have something to clear.
  expect((await request.post("/api/v1/demo/scenarios/clock-skew", sameOrigin({}))).status()).toBe(200);
  const before = { incident: await incidentState(request, target.incident), demo: await demoState(request) };
  expect(before.incident.incident.status).toBe("open");

  const answers: string[] = [];
  for (const { method, pattern } of routes) {
    const body = pattern === "/api/v1/alerts/alertmanager" ? alert("ForgedAlert") : bodyFor(pattern, target);
    // The webhook has a token configured (playwright.config.ts): without it, anything on an allowed Host is a 401.
    const machine = pattern === "/api/v1/alerts/alertmanager";
    for (const variant of variants) {
      const answer = await request.fetch(urlFor(pattern, target), { method, ...variant.options(body as Record<string, unknown>) });
      const error = (await answer.json()).error as string;
      answers.push(`${method} ${pattern} ${variant.name}: ${answer.status()} ${error}`);
      const status = machine && variant.status !== 421 ? 401 : variant.status;
      expect(answer.status(), `${method} ${pattern} with ${variant.name}: ${error}`).toBe(status);
      expect(error).toMatch(/cross-site request refused|Content-Type: application\/json|does not answer to the host|bearer token is required/);
    }
  }
  console.log(`${answers.length} forged requests, all refused; e.g.\n${answers.filter((_, i) => i % 7 === 0).join("\n")}`);
  expect(answers).toHaveLength(routes.length * variants.length);

  expect(await incidentState(request, target.incident)).toEqual(before.incident);
  expect(await demoState(request)).toEqual(before.demo);
  const forged = await (await request.get(`/api/v1/incidents?cluster=${CLUSTER}&status=open,acknowledged,resolved&limit=50`)).json();
  expect(forged.incidents.map((i: { title: string }) => i.title).join(" ")).not.toContain("ForgedAlert");
  await page.goto("/demo");
  await expect(page.getByTestId("api-server-switch")).toContainText("Simulated API server and endpoints: up");
  await request.delete("/api/v1/demo/scenarios/clock-skew", sameOrigin());
});

/** What the hostile page's script leaves on its window. */
type HostileWindow = Window & { done?: boolean; results?: string[] };

/** A page on another local origin that posts forms, calls fetch() and frames Faultline, as a hostile site would. */
function hostilePage(target: Target): string {
  const form = (i: number, action: string, enctype: string, fields: string) =>
    `<iframe name="sink${i}"></iframe><form id="f${i}" method="post" action="${ORIGIN}${action}" enctype="${enctype}" target="sink${i}">${fields}</form>`;
  const inc = `/api/v1/incidents/${target.incident}`;
  // text/plain forms write name=value: a name that opens JSON and a value that closes it make a JSON body.
  const json = (body: object) => {
    const text = JSON.stringify({ ...body, pad: "" });
    return `<input type="hidden" name='${text.slice(0, -2)}' value='"}'>`;
  };
  const forms = [
    form(0, `${inc}/acknowledge`, "text/plain", json({ actor: "evil" })),
    form(1, `${inc}/resolve`, "application/x-www-form-urlencoded", `<input name="actor" value="evil"><input name="resolution" value="forged">`),
    form(2, `${inc}/notes`, "multipart/form-data", `<input name="actor" value="evil"><input name="text" value="forged">`),
    form(3, "/api/v1/demo/scenarios/openbao-sealed", "text/plain", json({})),
    form(4, "/api/v1/demo/api-server", "text/plain", json({ state: "down" })),
  ];
  const calls = [
    [`${inc}/acknowledge`, { actor: "evil" }],
    [`${inc}/resolve`, { actor: "evil", resolution: "forged" }],
    ["/api/v1/demo/scenarios/openbao-sealed", {}],
    ["/api/v1/demo/api-server", { state: "down" }],
  ];
  return `<!doctype html><title>hostile</title>
<iframe id="framed" src="${ORIGIN}${inc}" width="800" height="400"></iframe>
${forms.join("\n")}
<script>
const calls = ${JSON.stringify(calls)};
window.results = [];
(async () => {
  for (let i = 0; i < ${forms.length}; i++) document.getElementById("f" + i).submit();
  for (const [url, body] of calls) {
    // A simple request (no preflight) is sent; its answer is opaque to this page, so the server must refuse it.
    await fetch("${ORIGIN}" + url, { method: "POST", mode: "no-cors", credentials: "include", headers: { "Content-Type": "text/plain" }, body: JSON.stringify(body) }).then(() => results.push("no-cors sent"), (e) => results.push("no-cors " + e.message));
    // A JSON request needs the server's consent in a preflight, which it never gives.
    await fetch("${ORIGIN}" + url, { method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }).then((r) => results.push("cors " + r.status), (e) => results.push("cors blocked"));
  }
  navigator.sendBeacon("${ORIGIN}${inc}/acknowledge", JSON.stringify({ actor: "evil" }));
  window.done = true;
})();
</script>`;
}

test("a hostile page on another local origin can neither act through the browser nor frame Faultline", async ({ page, request }) => {
  const target = await makeTarget(request);
  const before = { incident: await incidentState(request, target.incident), demo: await demoState(request) };
  const html = hostilePage(target);
  const hostile: Server = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end(html));
  await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
  const hostileUrl = `http://localhost:${(hostile.address() as AddressInfo).port}/`;
  try {
    const refused: string[] = [];
    page.on("response", (r) => {
      if (r.url().startsWith(ORIGIN) && r.request().method() === "POST") refused.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(hostileUrl);
    await page.waitForFunction(
      () => {
        const w: HostileWindow = window;
        return w.done === true;
      },
      undefined,
      { timeout: 15_000 },
    );
    const results = await page.evaluate(() => {
      const w: HostileWindow = window;
      return w.results!;
    });
    // Every CORS call stopped at the preflight; nothing the page sent came back 2xx.
    expect(results.filter((r) => r.startsWith("cors"))).toEqual(Array(4).fill("cors blocked"));
    await expect.poll(() => refused.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    for (const line of refused) expect(line).toMatch(/^(403|415) /);

    // The frame shows no page of Faultline, where a visit shows its Acknowledge button: the browser refused to render it (frame-ancestors 'none', X-Frame-Options).
    const framed = page.frames().find((f) => f.parentFrame() === page.mainFrame() && f.name() === "");
    expect(framed).toBeDefined();
    expect(await framed!.locator("text=Acknowledge").count()).toBe(0);
    const visit = await page.context().newPage();
    await visit.goto(`/incidents/${target.incident}`);
    await expect(visit.getByRole("button", { name: "Acknowledge", exact: true })).toBeVisible();
    await visit.close();

    expect(await incidentState(request, target.incident)).toEqual(before.incident);
    expect(await demoState(request)).toEqual(before.demo);
    await page.goto("/demo");
    await expect(page.getByTestId("api-server-switch")).toContainText("Simulated API server and endpoints: up");
  } finally {
    await new Promise((resolve) => hostile.close(resolve));
  }
});
