import type { APIRequestContext, Page } from "@playwright/test";

export const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });

interface ApiNode {
  id: string;
  next: { label?: string; to: string }[];
}

/** The answers (edge labels, or null for "next") that lead from the start of a runbook to `target`. */
export async function answersTo(request: APIRequestContext, runbook: string, target: string): Promise<(string | null)[]> {
  const body = (await (await request.get(`/api/v1/runbooks/${runbook}`)).json()) as { root: string; nodes: ApiNode[] };
  const nodes = new Map(body.nodes.map((n) => [n.id, n]));
  const previous = new Map<string, { from: string; label: string | null } | null>([[body.root, null]]);
  const queue = [body.root];
  while (queue.length) {
    const id = queue.shift()!;
    for (const next of nodes.get(id)!.next) {
      if (previous.has(next.to)) continue;
      previous.set(next.to, { from: id, label: next.label ?? null });
      queue.push(next.to);
    }
  }
  if (!previous.has(target)) throw new Error(`${target} is not reachable in ${runbook}`);
  const answers: (string | null)[] = [];
  for (let at = previous.get(target); at; at = previous.get(at.from)) answers.unshift(at.label);
  return answers;
}

/** Clicks the answer buttons of guided mode, one per step. */
export async function answer(page: Page, answers: (string | null)[]): Promise<void> {
  const group = page.getByRole("group", { name: "Answers" });
  for (const label of answers) {
    const before = await page.getByTestId("current-label").textContent();
    if (label) await group.getByRole("button", { name: new RegExp(`^\\S+ ${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }).click();
    else await group.getByRole("button").first().click();
    await page.waitForFunction((text) => document.querySelector('[data-testid="current-label"]')?.textContent !== text, before);
  }
}

/** The server's own origin (playwright.config.ts): the request API sends no Origin, and the edge refuses a state change without one. */
export const ORIGIN = `http://127.0.0.1:${process.env.FAULTLINE_E2E_PORT ?? 3100}`;

/** The webhook's bearer token, as playwright.config.ts configures it (a test value, not a secret). */
export const WEBHOOK_TOKEN = "e2e-webhook-token-not-a-secret-0001";

/** A state-changing API call as the site itself sends it: a JSON body and the server's own Origin. */
export const sameOrigin = (data: unknown = {}) => ({ data, headers: { origin: ORIGIN } });

/** A delivery as Alertmanager sends it: JSON, its bearer token, no Origin. */
export const asAlertmanager = (data: unknown) => ({ data, headers: { authorization: `Bearer ${WEBHOOK_TOKEN}` } });

interface HealthSource {
  name: string;
  up: boolean;
  lastSuccess?: string;
  watch?: { notServed?: boolean; resourceVersion?: string };
}

/**
 * The sources the monitor has not yet read since a demo change: a watch behind the bookmark the change was followed by
 * (`resourceVersion`), a probe not answered since `at`. Sources that are down, or not served, have nothing to read;
 * the KMS metrics are Prometheus's, and fresh only after its next scrape (a spec that needs them waits for them).
 */
function unread(health: DemoHealth, change: { at: string; resourceVersion: string }): string[] {
  const after = Date.parse(change.at);
  return health.sources
    .filter((s) => s.up && s.name !== "metrics" && !s.watch?.notServed)
    .filter((s) => (s.watch ? !(Number(s.watch.resourceVersion ?? "0") >= Number(change.resourceVersion)) : !(Date.parse(s.lastSuccess ?? "") > after)))
    .map((s) => s.name);
}

/**
 * Injects (or with `on: false` clears) a demo scenario and returns once the monitor has read it: every watch past the
 * bookmark that followed the change, every probe answered after it (the health API's sources say so). A page that
 * shows the monitor's health need then only wait for its push, never for the monitor's own cadence.
 */
export async function scenario(request: APIRequestContext, id: string, opts: { on?: boolean; node?: string; variant?: string } = {}): Promise<void> {
  const { on = true, ...body } = opts;
  const path = `/api/v1/demo/scenarios/${id}`;
  const response = on ? await request.post(path, sameOrigin(body)) : await request.delete(path, sameOrigin());
  if (!response.ok()) throw new Error(`${on ? "POST" : "DELETE"} ${path}: ${response.status()} ${await response.text()}`);
  const change = (await response.json()) as { at: string; resourceVersion: string };
  await healthUntil(
    request,
    (health) => unread(health, change).length === 0,
    (last) => `the monitor to read ${unread(last, change).join(", ")} after scenario ${id} was ${on ? "injected" : "cleared"}`,
    30_000,
    100,
  );
}

/** The parts of the demo cluster's health (GET /api/v1/clusters/demo/health) that specs wait on. */
export interface DemoHealth {
  sources: HealthSource[];
  signals: { id: string; subject: string; state: string; detail: string }[];
  metrics?: { at: string; metrics: Record<string, { series: { labels: Record<string, string>; value: number | string | null }[] }> };
}

/**
 * Polls the monitor's health until `check` holds: for what comes on the monitor's or Prometheus's own time (a scrape
 * that carries a change, a window that fills), so the page is asked only once the data is there. Fails naming `what`
 * (which may say what the last health still lacked).
 */
export async function healthUntil(
  request: APIRequestContext,
  check: (health: DemoHealth) => boolean,
  what: string | ((last: DemoHealth) => string),
  ms: number,
  everyMs = 250,
): Promise<DemoHealth> {
  const end = Date.now() + ms;
  for (;;) {
    const health = (await (await request.get("/api/v1/clusters/demo/health?view=summary")).json()) as DemoHealth;
    if (check(health)) return health;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === "string" ? what : what(health)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
