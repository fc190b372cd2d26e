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
