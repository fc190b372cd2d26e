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
