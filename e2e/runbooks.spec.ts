import { expect, test } from "@playwright/test";
import { answer, answersTo, shot } from "./helpers";

test("an on-call follows 'sidecar not injected' to the certificate fix, hands over by URL, goes back and reads a step", async ({ page }) => {
  await page.goto("/runbooks");
  await page.getByLabel("Search runbooks").fill("sidecar");
  await page
    .getByRole("link", { name: /Sidecar not injected/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/runbooks\/sidecar-not-injected$/);
  const label = page.getByTestId("current-label");
  await expect(label).toHaveText("Pod starts without CloudTaser wrapper");

  // Keyboard: Enter to begin, then y / n answers.
  await page.keyboard.press("Enter");
  await expect(label).toHaveText(/Is cloudtaser.io\/inject: true/);
  for (const key of ["y", "y", "y"]) {
    const before = await label.textContent();
    await page.keyboard.press(key);
    await expect(label).not.toHaveText(before!);
  }
  await expect(label).toHaveText("Does the webhook have a valid CA bundle?");
  await expect(page.getByTestId("current-step")).toContainText("openssl x509 -noout -dates");
  await page.getByRole("group", { name: "Answers" }).getByRole("button", { name: /No$/ }).click();
  await expect(label).toHaveText(/Restart operator to regenerate certs/);
  await expect(page).toHaveURL(/\?path=A\.B\.C\.D\.E\.E1$/);
  await expect(page.getByTestId("current-step")).toContainText("kubectl rollout restart -n cloudtaser-system");
  // The diagram shows the path taken and where we are.
  await expect(page.locator('g.node[data-node="E1"]')).toHaveClass(/fl-current/);
  await expect(page.locator('g.node[data-node="D"]')).toHaveClass(/fl-path/);
  await expect(page.locator('g.node[data-node="B1"]')).not.toHaveClass(/fl-path/);
  await shot(page, "10-runbook-sidecar-fix");

  // A colleague opens the same link.
  await page.reload();
  await expect(label).toHaveText(/Restart operator to regenerate certs/);
  await expect(page.getByRole("navigation", { name: "Path taken" })).toContainText("No → Restart operator to regenerate certs");

  await page.getByRole("button", { name: "← Back" }).click();
  await expect(label).toHaveText("Does the webhook have a valid CA bundle?");
  await expect(page).toHaveURL(/\?path=A\.B\.C\.D\.E$/);

  // Click a node on the diagram to read it without leaving the walk.
  await page.locator('g.node[data-node="C1"]').click();
  const inspected = page.getByTestId("inspected-step");
  await expect(inspected).toContainText("Start the operator");
  await expect(inspected).toContainText("kubectl rollout status -n cloudtaser-system");
  await shot(page, "11-runbook-node-clicked");
  await page.keyboard.press("Escape");
  await expect(inspected).toHaveCount(0);
  await expect(label).toHaveText("Does the webhook have a valid CA bundle?");
  await page.keyboard.press("Backspace");
  await expect(label).toHaveText("Is the MutatingWebhookConfiguration present?");
});

test("a KMS runbook ends on its catalog entry, and the entry links back to that step", async ({ page, request }) => {
  const answers = await answersTo(request, "transit-key-problems", "C2");
  await page.goto("/runbooks/transit-key-problems");
  await answer(page, answers);
  const step = page.getByTestId("current-step");
  await expect(step).toContainText("Diagnosis");
  await shot(page, "12-runbook-transit-key-deleted");
  await step.getByRole("link", { name: "Transit key deleted" }).click();
  await expect(page).toHaveURL(/\/catalog\/transit-key-deleted$/);
  const back = page
    .getByTestId("entry-runbooks")
    .getByRole("link", { name: /^Transit key deleted, soft-deleted/ })
    .first();
  await expect(back).toBeVisible();
  await back.click();
  await expect(page).toHaveURL(/\/runbooks\/transit-key-problems\?path=/);
  await expect(page.getByTestId("current-step").getByRole("link", { name: "Transit key deleted" })).toBeVisible();
});

test("a path in a link that the tree does not allow stops where it breaks and says so", async ({ page }) => {
  await page.goto("/runbooks/sidecar-not-injected?path=A.B.E1");
  await expect(page.getByTestId("path-problem")).toContainText("step E1 does not follow B");
  await expect(page.getByTestId("current-label")).toHaveText(/Is cloudtaser.io\/inject/);
});

test("the print view lists every step with its commands", async ({ page, request }) => {
  const body = await (await request.get("/api/v1/runbooks/sidecar-not-injected")).json();
  await page.goto("/runbooks/sidecar-not-injected/print");
  await expect(page.locator(".print-steps > li")).toHaveCount(body.nodes.length);
  await expect(page.locator("#step-E")).toContainText("base64 -d | openssl x509 -noout -dates");
  await expect(page.locator("#step-E")).toContainText("No: go to E1");
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header")).toBeHidden();
});

test("the runbook API returns the parsed graph and a JSON 404", async ({ request }) => {
  const list = await (await request.get("/api/v1/runbooks")).json();
  expect(list.count).toBe(14);
  const one = await (await request.get("/api/v1/runbooks/sidecar-not-injected")).json();
  expect(one.root).toBe("A");
  expect(one.edges).toContainEqual({ from: "E", to: "E1", label: "No" });
  expect(one.nodes.find((n: { id: string }) => n.id === "E1")).toMatchObject({ kind: "action", catalog: expect.any(Array) });
  const missing = await request.get("/api/v1/runbooks/nope");
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: 'no runbook with id "nope"', id: "nope" });
});
